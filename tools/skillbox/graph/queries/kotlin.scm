; Kotlin.

(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(type_alias (identifier) @name) @definition.type

(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression (_) @receiver . (identifier) @name .)) @reference.call

(delegation_specifier (constructor_invocation (user_type (identifier) @name))) @reference.inherit
(delegation_specifier (user_type (identifier) @name)) @reference.implement

(parameter (user_type (identifier) @name)) @reference.type
(class_parameter (user_type (identifier) @name)) @reference.type
(annotation (user_type (identifier) @name)) @reference.decorator

(import (qualified_identifier) @import.source) @import

(line_comment) @comment
(block_comment) @comment
