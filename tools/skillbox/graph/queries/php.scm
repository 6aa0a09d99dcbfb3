; PHP.

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.class
(enum_declaration name: (name) @name) @definition.type
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.function

(function_call_expression function: (name) @name) @reference.call
(function_call_expression function: (qualified_name (name) @name .)) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call
(object_creation_expression (name) @name) @reference.call
(object_creation_expression (qualified_name (name) @name .)) @reference.call

(base_clause (name) @name) @reference.inherit
(base_clause (qualified_name (name) @name .)) @reference.inherit
(class_interface_clause (name) @name) @reference.implement
(class_interface_clause (qualified_name (name) @name .)) @reference.implement
(use_declaration (name) @name) @reference.inherit

(namespace_use_clause (qualified_name) @import.source) @import
(namespace_use_clause (name) @import.source) @import
(require_once_expression (_) @import.source) @import
(require_expression (_) @import.source) @import
(include_expression (_) @import.source) @import
(include_once_expression (_) @import.source) @import

(comment) @comment
