package sparse

// addScaled4Go is the portable addScaled4. The explicit conversions round
// each product, so the compiler may not fuse it with the sum (the Go spec
// allows fusing x*y + z otherwise): the bits match floats.AddScaled's
// separate multiply and add.
func addScaled4Go(d []float64, v *[4]float64, x0, x1, x2, x3 []float64) {
	x0, x1, x2, x3 = x0[:len(d)], x1[:len(d)], x2[:len(d)], x3[:len(d)]
	for i, t := range d {
		t += float64(v[0] * x0[i])
		t += float64(v[1] * x1[i])
		t += float64(v[2] * x2[i])
		t += float64(v[3] * x3[i])
		d[i] = t
	}
}
