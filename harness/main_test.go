package harness_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"kcalab/harness"
	_ "kcalab/harness/builtin"
)

// TestMain lets the test binary serve as the child process of measured
// trials, as the kcalab binary does.
func TestMain(m *testing.M) {
	if harness.ChildRequested() {
		if err := harness.RunChild(context.Background(), os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
