package harness_test

import (
	"fmt"

	"kcalab/schema"
)

// A setting's metadata comes from the tags of schema.Settings: its type,
// default, range and the short form reports print.
func ExampleLookupSetting() {
	s, _ := schema.LookupSetting("svd.rank")
	fmt.Println(s.Kind, s.Default, *s.Min)
	fmt.Println(schema.ShortLabel("svd.rank", "300"), schema.ShortLabel("method", "sgns"))
	// Output:
	// integer 0 0
	// d=300 SGNS
}

// DecodeSpec expands a spec into trials whose typed settings code reads.
func ExampleDecodeSpec() {
	spec, err := schema.DecodeSpec([]byte("name: x\nsvd: {rank: [100, 300], backend: krylov}\n"), "x.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range spec.Trials() {
		fmt.Println(t.ID, t.SVD.Rank, t.SVD.Backend, t.Data.Source)
	}
	_, err = schema.DecodeSpec([]byte("name: x\nsvd: {rnak: 3}\n"), "x.yaml")
	fmt.Println(err)
	// Output:
	// de1059001958 100 krylov fisher
	// 4ef71a281a8d 300 krylov fisher
	// x.yaml:2: unknown key "svd.rnak"; did you mean "rank"? (allowed in svd: backend, normalizer, oversample, power_iters, projected, rank, record_sigma, shared_rank, tol)
}
