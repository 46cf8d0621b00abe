// Package schema is what a KCA lab spec is: its settings, how a YAML spec
// decodes into them, how its grid expands into trials, and the
// descriptions of the methods a spec may name.
//
// # Settings
//
// Every setting is declared once, as a field of Settings (or RunSettings:
// name, seed, …), one struct per namespace, whose tags carry its key,
// type, default, range or allowed values, help text and the display
// metadata reports use (Setting); docs/settings.md is generated from them.
// After decoding, code reads typed fields (t.SVD.Rank), never keys;
// RecordSettings decodes a record's settings back into them.
//
// # Specs and trials
//
// DecodeSpec decodes strictly: unknown keys (with a did-you-mean), wrong
// types, out-of-range values and unknown built-in names are errors naming
// the file, the line and what is allowed. A setting given as a list is a
// grid axis; variants: lists rows that override settings and are crossed
// with the remaining axes. Each trial's id hashes its non-default
// settings, and its seed derives from the spec seed and the id alone.
// Settings naming data take a built-in name or a file path relative to the
// spec file (IsPath, SetKey).
//
// # Methods
//
// A MethodInfo says what a method is: its name and label, the inputs it
// takes, the settings it reads (a record keeps those, and SameTrial
// compares only those), and what reports should know of it. Package
// harness registers each method's description here when the method
// registers; nothing here runs a method.
package schema
