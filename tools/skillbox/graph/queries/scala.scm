; Scala.

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.interface
(enum_definition name: (identifier) @name) @definition.type
(type_definition name: (type_identifier) @name) @definition.type
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name)) @reference.call
(instance_expression (type_identifier) @name) @reference.call

(extends_clause type: (type_identifier) @name) @reference.inherit
(extends_clause type: (generic_type type: (type_identifier) @name)) @reference.inherit

(parameter type: (type_identifier) @name) @reference.type

(import_declaration) @import

(comment) @comment
(block_comment) @comment
