; TypeScript and TSX. Imports are parsed by the javascript hook.

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.function
(method_signature name: (property_identifier) @name) @definition.function
(abstract_method_signature name: (property_identifier) @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call

(extends_clause value: (identifier) @name) @reference.inherit
(extends_clause value: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.inherit
(extends_type_clause type: (type_identifier) @name) @reference.inherit
(implements_clause (type_identifier) @name) @reference.implement

(type_annotation (type_identifier) @name) @reference.type
(type_annotation (union_type (type_identifier) @name)) @reference.type
(type_annotation (generic_type name: (type_identifier) @name)) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(decorator (identifier) @name) @reference.decorator
(decorator (call_expression function: (identifier) @name)) @reference.decorator

; Typed receivers: `const x = new Cls()` lets `x.method()` resolve (INFERRED) to Cls.method.
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.assign

(import_statement) @import
(export_statement source: (string)) @import
((call_expression function: (identifier) @_require arguments: (arguments . (string) .)) @import
  (#eq? @_require "require"))

(comment) @comment
