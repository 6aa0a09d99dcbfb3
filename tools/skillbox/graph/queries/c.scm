; C: definitions with bodies; prototypes in headers are declarations, not nodes.

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.type
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

(parameter_declaration type: (type_identifier) @name) @reference.type
(parameter_declaration type: (struct_specifier name: (type_identifier) @name)) @reference.type

(preproc_include path: (string_literal) @import.source) @import
(preproc_include path: (system_lib_string) @import.source) @import

(comment) @comment
