; TypeScript and TSX. Imports are parsed by the javascript hook.

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
; A method: `function` in a class body; in an object literal `objmethod`, a node of its object, but no name visible in
; the file's scope. extract.py reads which off the parent (`@definition.member`): rooted at `class_body` / `object`,
; two patterns kept a state alive over every object literal's subtree (~3.5% of the query's time on svelte).
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.member
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

; Value flow (see resolve.py): `const x = new C()`, `x: C` parameters and variables, `this.x = new C()`,
; fields and constructor parameter properties typed `C`, so `x.m()` and `this.x.m()` resolve to C.m.
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.assign
(variable_declarator name: (identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.assign
(required_parameter pattern: (identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.assign
(optional_parameter pattern: (identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.assign
(required_parameter (accessibility_modifier) pattern: (identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.attr
(public_field_definition name: (property_identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.attr
(public_field_definition name: (property_identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.attr
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @name)
  right: (new_expression constructor: (identifier) @receiver)) @reference.attr

; Callback parameters typed by the callee (`cb: (stream: StreamingApi) => ...` among a definition's parameters), and
; the untyped first parameter of a callback passed to a named function (`stream(c, async (s) => s.onAbort())`):
; `s` is taken as a StreamingApi (INFERRED, see resolve.py `_evaluate`).
(required_parameter type: (type_annotation (function_type parameters: (formal_parameters
  . (required_parameter pattern: (identifier) type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])))))) @reference.cbparam
(optional_parameter type: (type_annotation (function_type parameters: (formal_parameters
  . (required_parameter pattern: (identifier) type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])))))) @reference.cbparam
; Rooted at the callback, the call around it checked in extract.py (`@argument.cbarg`): rooted at every
; `call_expression` this pattern cost ~4.5% of the query's time on svelte's TypeScript.
(arrow_function parameters: (formal_parameters . (required_parameter pattern: (identifier) @name !type))) @argument.cbarg

; Exports under another name (`export { Hono as HonoBase }`) and default exports: what importers bind.
(export_statement !source (export_clause (export_specifier name: (identifier) @receiver alias: (identifier) @name))) @reference.exportas
(export_statement "default" value: (identifier) @name) @reference.exportdefault
; Two patterns, not one with an alternation `declaration: [(class_declaration ...) (function_declaration ...)]`:
; that one costs ~3% of the query's time on svelte's JavaScript (callgrind), the pair next to nothing.
(export_statement "default" declaration: (class_declaration name: (_) @name)) @reference.exportdefault
(export_statement "default" declaration: (function_declaration name: (identifier) @name)) @reference.exportdefault

(import_statement) @import
(export_statement source: (string)) @import
((call_expression function: (identifier) @_require arguments: (arguments . (string) .)) @import
  (#eq? @_require "require"))

(comment) @comment
