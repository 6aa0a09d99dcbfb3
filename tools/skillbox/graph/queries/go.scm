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

;  Value flow (see resolve.py): a method's receiver and typed parameters, `var x T`, `x := T{}` / `&T{}` /
; `f()`, and what a function returns (its result type or a returned `&T{}`), so `x.M()` resolves to T.M.
(parameter_declaration name: (identifier) @name
  type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver)]) @reference.assign
(var_spec name: (identifier) @name type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver)]) @reference.assign
(short_var_declaration left: (expression_list . (identifier) @name)
  right: (expression_list . [(composite_literal type: (type_identifier) @receiver)
    (unary_expression operand: (composite_literal type: (type_identifier) @receiver))
    (call_expression function: [(identifier) (selector_expression)] @receiver)])) @reference.assign
(function_declaration result: [(type_identifier) @name (pointer_type (type_identifier) @name)]) @reference.returncall
(method_declaration result: [(type_identifier) @name (pointer_type (type_identifier) @name)]) @reference.returncall

(import_spec path: (interpreted_string_literal) @import.source name: (package_identifier)? @import.alias) @import

(comment) @comment
