; Java.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.type
(annotation_type_declaration name: (identifier) @name) @definition.interface
(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function

(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(object_creation_expression type: (type_identifier) @name) @reference.call

(superclass (type_identifier) @name) @reference.inherit
(super_interfaces (type_list (type_identifier) @name)) @reference.implement
(extends_interfaces (type_list (type_identifier) @name)) @reference.inherit

(formal_parameter type: (type_identifier) @name) @reference.type
(method_declaration type: (type_identifier) @name) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(marker_annotation name: (identifier) @name) @reference.decorator
(annotation name: (identifier) @name) @reference.decorator

; Typed receivers: `Dog d = ...`, a parameter `Dog d` and a field `private Dog d;` let `d.speak()` resolve to
; Dog.speak; `List<Dog> dogs` is a List, `Map.Entry<K, V> e` a Map.Entry.
(local_variable_declaration type: [(type_identifier) @receiver (scoped_type_identifier) @receiver
    (generic_type [(type_identifier) (scoped_type_identifier)] @receiver)]
  declarator: (variable_declarator name: (identifier) @name) (#not-eq? @receiver "var")) @reference.assign
; `var x = new Foo(...)`: the value's type.
(local_variable_declaration type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @name
    value: (object_creation_expression type: [(type_identifier) @receiver (generic_type (type_identifier) @receiver)]))
  (#eq? @_var "var")) @reference.assign
(formal_parameter type: [(type_identifier) @receiver (scoped_type_identifier) @receiver
    (generic_type [(type_identifier) (scoped_type_identifier)] @receiver)]
  name: (identifier) @name) @reference.assign
(field_declaration type: [(type_identifier) @receiver (scoped_type_identifier) @receiver
    (generic_type [(type_identifier) (scoped_type_identifier)] @receiver)]
  declarator: (variable_declarator name: (identifier) @name)) @reference.assign

; `var x = make()`: what `make` returns.
(local_variable_declaration type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @name value: (method_invocation !object name: (identifier) @receiver))
  (#eq? @_var "var")) @reference.assign
; Enum constants are instances of their enum: `DateType.DATE.format()`.
(enum_declaration name: (identifier) @receiver body: (enum_body (enum_constant name: (identifier) @name))) @reference.assign

; The declared return type: what a call of the method gives, so `new Builder().setX(1).build()` follows the chain.
(method_declaration type: [(type_identifier) @name (scoped_type_identifier) @name
  (generic_type [(type_identifier) (scoped_type_identifier)] @name)]) @reference.returncall

(import_declaration (scoped_identifier) @import.source) @import
; The package a file declares: its other files' types are visible without an import.
(package_declaration [(identifier) (scoped_identifier)] @name) @reference.namespace

(line_comment) @comment
(block_comment) @comment
