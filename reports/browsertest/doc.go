// Package browsertest opens report pages in a fresh headless Chromium for
// tests: it loads a page with no network, records the page's JavaScript
// errors, waits for a predicate, takes screenshots and measures how much of
// a screenshot is drawn on (Ink), so a test can tell a drawn chart from a
// blank box.
//
// Tests skip when Chromium is missing, unless KCALAB_REQUIRE_BROWSER=1 (as
// in CI), which makes that a failure.
package browsertest
