; JavaScript (also .mjs/.cjs/.jsx). Imports are parsed by the javascript hook.

(class_declaration name: (identifier) @name) @definition.class
(class name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_body (method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.function)
; A method of an object literal belongs to its object: a node, but no name visible in the file's scope.
(object (method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.objmethod)
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

; Value flow (see resolve.py): `const x = new C()` and `this.x = new C()` let `x.m()` / `this.x.m()` resolve.
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.assign
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @name)
  right: (new_expression constructor: (identifier) @receiver)) @reference.attr
(field_definition property: (property_identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.attr

; Exports under another name (`export { Hono as HonoBase }`) and default exports: what importers bind.
(export_statement !source (export_clause (export_specifier name: (identifier) @receiver alias: (identifier) @name))) @reference.exportas
(export_statement "default" value: (identifier) @name) @reference.exportdefault
(export_statement "default" declaration: [(class_declaration name: (_) @name) (function_declaration name: (identifier) @name)]) @reference.exportdefault

(import_statement) @import
(export_statement source: (string)) @import
((call_expression function: (identifier) @_require arguments: (arguments . (string) .)) @import
  (#eq? @_require "require"))

(comment) @comment
