; C#.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
(local_function_statement name: (identifier) @name) @definition.function

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (member_access_expression expression: (_) @receiver name: (identifier) @name)) @reference.call
(object_creation_expression type: (identifier) @name) @reference.call

(base_list (identifier) @name) @reference.inherit
(base_list (generic_name (identifier) @name)) @reference.inherit

(parameter type: (identifier) @name) @reference.type
(attribute name: (identifier) @name) @reference.decorator

(using_directive [(identifier) (qualified_name)] @import.source) @import
; The namespace a file declares: with its `using`s, which other files' types a bare name can mean.
(namespace_declaration name: [(identifier) (qualified_name)] @name) @reference.namespace
(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @reference.namespace

(comment) @comment
