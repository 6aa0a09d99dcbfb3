; Java.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.type
(annotation_type_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function

(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(object_creation_expression type: (type_identifier) @name) @reference.call

(superclass (type_identifier) @name) @reference.inherit
(super_interfaces (type_list (type_identifier) @name)) @reference.implement
(extends_interfaces (type_list (type_identifier) @name)) @reference.inherit

(formal_parameter type: (type_identifier) @name) @reference.type
(method_declaration type: (type_identifier) @name) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(marker_annotation name: (identifier) @name) @reference.decorator
(annotation name: (identifier) @name) @reference.decorator

; Typed receivers: `Dog d = ...` lets `d.speak()` resolve (INFERRED) to Dog.speak.
(local_variable_declaration type: (type_identifier) @receiver declarator: (variable_declarator name: (identifier) @name)) @reference.assign
(formal_parameter type: (type_identifier) @receiver name: (identifier) @name) @reference.assign

(import_declaration (scoped_identifier) @import.source) @import

(line_comment) @comment
(block_comment) @comment
