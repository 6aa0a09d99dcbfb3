; JavaScript (also .mjs/.cjs/.jsx). Imports are parsed by the javascript hook.

(class_declaration name: (identifier) @name) @definition.class
(class name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
; A method: `function` in a class body; in an object literal `objmethod`, a node of its object, but no name visible in
; the file's scope. extract.py reads which off the parent (`@definition.member`): rooted at `class_body` / `object`,
; two patterns kept a state alive over every object literal's subtree (~3.5% of the query's time on svelte).
(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.member
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

; Value flow (see resolve.py; js_flow.scm has the rest): `const x = new C()` and `this.x = new C()` let `x.m()` /
; `this.x.m()` resolve.
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.assign
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @name)
  right: (new_expression constructor: (identifier) @receiver)) @reference.attr
(field_definition property: (property_identifier) @name value: (new_expression constructor: (identifier) @receiver)) @reference.attr

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
