package schema_test

import (
	_ "kcalab/harness/builtin"
	"kcalab/schema"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReportSettings(t *testing.T) {
	spec, err := schema.DecodeSpec([]byte("name: t\nreport: {lead: scaling, paper_rows: [SCA+MEN=SCA+MEN in-sample, tail-cut=494f6ad161fe], check: true}\n"), "")
	require.NoError(t, err)
	assert.Equal(t, schema.ReportSettings{Lead: "scaling", PaperRows: []string{"SCA+MEN=SCA+MEN in-sample", "tail-cut=494f6ad161fe"}, Check: true}, spec.Report)
	assert.Empty(t, spec.Axes(), "report keys are not grid axes")

	spec, err = schema.DecodeSpec([]byte("name: t\n"), "")
	require.NoError(t, err)
	assert.Equal(t, "auto", spec.Report.Lead)

	_, err = schema.DecodeSpec([]byte("name: t\nreport: {lead: nowhere}\n"), "")
	assert.ErrorContains(t, err, "nowhere")
	_, err = schema.DecodeSpec([]byte("name: t\nvariants:\n  - {label: a, report: {lead: ca}}\n"), "")
	assert.ErrorContains(t, err, "whole run")
	_, err = schema.DecodeSpec([]byte("name: t\nreport: {lead: [ca, trials]}\n"), "")
	assert.Error(t, err, "a run key is never a grid axis")
}
