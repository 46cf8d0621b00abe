// Package termsafe escapes text that came from files or specs before it
// reaches a terminal, so a name cannot move the cursor, clear the screen or
// retitle the window.
package termsafe
