; JavaScript (also .mjs/.cjs/.jsx). Imports are parsed by the javascript hook.

(class_declaration name: (identifier) @name) @definition.class
(class name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.function

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression object: (_) @receiver property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call

(class_heritage (identifier) @name) @reference.inherit
(class_heritage (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.inherit

; Typed receivers: `const x = new Cls()` lets `x.method()` resolve (INFERRED) to Cls.method.
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.assign

(import_statement) @import
(export_statement source: (string)) @import
((call_expression function: (identifier) @_require arguments: (arguments . (string) .)) @import
  (#eq? @_require "require"))

(comment) @comment
