; JSX (appended to the JavaScript and TSX queries): using a component is a call to it.

(jsx_opening_element name: (identifier) @name) @reference.call
(jsx_self_closing_element name: (identifier) @name) @reference.call
(jsx_opening_element name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
