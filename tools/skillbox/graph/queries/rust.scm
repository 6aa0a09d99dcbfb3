; Rust: `impl` blocks are containers named after their type; `use` trees are parsed by the rust hook.

(struct_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.type
(union_item name: (type_identifier) @name) @definition.type
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.interface
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @definition.impl
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
(macro_definition name: (identifier) @name) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
(struct_expression name: (type_identifier) @name) @reference.call

(impl_item trait: (type_identifier) @name) @reference.implement
(impl_item trait: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name)) @reference.implement
(impl_item trait: (generic_type type: (type_identifier) @name)) @reference.implement
(trait_bounds (type_identifier) @name) @reference.inherit

(parameter type: (type_identifier) @name) @reference.type
(parameter type: (reference_type type: (type_identifier) @name)) @reference.type
(function_item return_type: (type_identifier) @name) @reference.type

(use_declaration) @import
(mod_item name: (identifier) @name !body) @import

(line_comment) @comment
(block_comment) @comment
