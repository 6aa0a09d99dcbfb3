; Swift: `extension T` blocks are containers named after their type.

(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.type
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name)) @definition.impl
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.function

(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

(inheritance_specifier inherits_from: (user_type (type_identifier) @name)) @reference.inherit

(parameter (user_type (type_identifier) @name)) @reference.type
(type_annotation (user_type (type_identifier) @name)) @reference.type

(import_declaration (identifier) @import.source) @import

(comment) @comment
(multiline_comment) @comment
