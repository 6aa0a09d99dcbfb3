; C++: classes, namespaces, methods in class bodies and out-of-line `Class::method` definitions (@owner).

(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.class
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.type
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type
(namespace_definition name: (namespace_identifier) @name) @definition.module

(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier scope: (namespace_identifier) @owner name: [(identifier) (destructor_name) (operator_name)] @name))) @definition.method
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (qualified_identifier scope: (namespace_identifier) @receiver name: (identifier) @name)) @reference.call
(new_expression type: (type_identifier) @name) @reference.call

(base_class_clause (type_identifier) @name) @reference.inherit
(base_class_clause (qualified_identifier scope: (namespace_identifier) @receiver name: (type_identifier) @name)) @reference.inherit

(parameter_declaration type: (type_identifier) @name) @reference.type
(parameter_declaration type: (qualified_identifier name: (type_identifier) @name)) @reference.type

(preproc_include path: (string_literal) @import.source) @import
(preproc_include path: (system_lib_string) @import.source) @import

(comment) @comment
