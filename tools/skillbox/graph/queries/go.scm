; Go: methods are top-level and name their receiver type (@owner); package scope spans the folder.

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.class
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (map_type) (slice_type) (function_type) (pointer_type) (array_type) (channel_type) (generic_type)]) @definition.type
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) @owner (pointer_type (type_identifier) @owner) (generic_type type: (type_identifier) @owner) (pointer_type (generic_type type: (type_identifier) @owner))]))
  name: (field_identifier) @name) @definition.method
(method_elem name: (field_identifier) @name) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call
(composite_literal type: (type_identifier) @name) @reference.call

(struct_type (field_declaration_list (field_declaration !name type: (type_identifier) @name) @reference.inherit))
(interface_type (type_elem (type_identifier) @name) @reference.inherit)

(parameter_declaration type: (type_identifier) @name) @reference.type
(parameter_declaration type: (pointer_type (type_identifier) @name)) @reference.type

(import_spec path: (interpreted_string_literal) @import.source name: (package_identifier)? @import.alias) @import

(comment) @comment
