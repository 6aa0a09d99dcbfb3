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
; A function-typed property of an interface or a named object type (`fetch: (url: string) => Promise<Response>`): a
; method signature by another spelling, the declaration the checker names for `ctx.fetch()`. Not in an object type
; written inline (`(x as { subscribe: () => void }).subscribe()`): no name there holds it.
(interface_body
  (property_signature name: (property_identifier) @name type: (type_annotation (function_type))) @definition.function)
(type_alias_declaration value: (object_type
  (property_signature name: (property_identifier) @name type: (type_annotation (function_type))) @definition.function))
(type_alias_declaration value: (intersection_type (object_type
  (property_signature name: (property_identifier) @name type: (type_annotation (function_type))) @definition.function)))
; ... and what calling one gives (`get: (url: string) => ResponsePromise`), as for a declared return type below.
(interface_body (property_signature type: (type_annotation (function_type
  return_type: [(type_identifier) @name (generic_type name: (type_identifier) @name)]))) @reference.returntype)
(type_alias_declaration value: (object_type (property_signature type: (type_annotation (function_type
  return_type: [(type_identifier) @name (generic_type name: (type_identifier) @name)]))) @reference.returntype))
(type_alias_declaration value: (intersection_type (object_type (property_signature type: (type_annotation (function_type
  return_type: [(type_identifier) @name (generic_type name: (type_identifier) @name)]))) @reference.returntype)))
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
; `type Store = InternalStore`, `type Got = GotFunctions & {...}`: the alias has the members of what it names, like
; an interface that extends it.
(type_alias_declaration value: [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @reference.inherit
(type_alias_declaration
  value: (intersection_type [(type_identifier) @name (generic_type name: (type_identifier) @name)])) @reference.inherit

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

; Besides js_flow.scm's variables: `const ctx = {} as TestContext`, a cast gives the variable the type it names.
(variable_declarator name: (identifier) @name
  value: (as_expression (_) [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.assign
; Properties of interfaces and named object types (`interface Ctx { app: App }`): `ctx.app.m()` resolves to App.m.
(interface_body (property_signature name: (property_identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.attr)
(type_alias_declaration value: (object_type (property_signature name: (property_identifier) @name
  type: (type_annotation [(type_identifier) @receiver (generic_type name: (type_identifier) @receiver)])) @reference.attr))
; Returns beyond js_flow.scm's: `return x as T` and a declared return type (`returntype`, which wins over the
; returns unless they give a function), for the function they sit in only when it is a definition (`@owned`).
(return_statement [(as_expression [(identifier) (member_expression)] @name)
  (satisfies_expression [(identifier) (member_expression)] @name)]) @owned.returns
(function_declaration return_type: (type_annotation
  [(type_identifier) @name (generic_type name: (type_identifier) @name) (this_type) @name])) @owned.returntype
(method_definition return_type: (type_annotation
  [(type_identifier) @name (generic_type name: (type_identifier) @name) (this_type) @name])) @owned.returntype
(method_signature return_type: (type_annotation
  [(type_identifier) @name (generic_type name: (type_identifier) @name) (this_type) @name])) @owned.returntype
(abstract_method_signature return_type: (type_annotation
  [(type_identifier) @name (generic_type name: (type_identifier) @name) (this_type) @name])) @owned.returntype
(arrow_function return_type: (type_annotation
  [(type_identifier) @name (generic_type name: (type_identifier) @name) (this_type) @name])) @owned.returntype
(function_expression return_type: (type_annotation
  [(type_identifier) @name (generic_type name: (type_identifier) @name) (this_type) @name])) @owned.returntype

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
