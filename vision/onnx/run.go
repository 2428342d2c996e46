package onnx

import (
	"fmt"
	"strings"
)

// Session runs a [Model], keeping every intermediate buffer between runs
// so that a run on inputs of an unchanged size allocates nothing.
type Session struct {
	m     *Model
	vals  map[string]*Tensor
	plans map[string]*plan
	col   []float32
	wv    []float32 // winograd's transformed input
	wm    []float32 // and products
	tpad  []float32 // taps' padded input
	tacc  []float32 // and products
	out   []*Tensor
}

// plan is the nodes a set of outputs needs, in order, with a Conv fused
// with the Relu that alone reads it.
type plan struct {
	steps []step
}

type step struct {
	n    *node
	relu bool   // a Conv whose Relu is fused into it
	skip bool   // a Relu done by its Conv
	same string // the Relu's input, whose buffer its output shares
}

// NewSession returns a session of m.
func (m *Model) NewSession() *Session {
	return &Session{m: m, vals: map[string]*Tensor{}, plans: map[string]*plan{}}
}

func (s *Session) plan(outputs []string) *plan {
	key := strings.Join(outputs, "\x00")
	if p, ok := s.plans[key]; ok {
		return p
	}
	need := map[string]bool{}
	for _, o := range outputs {
		need[o] = true
	}
	var rev []*node
	for i := len(s.m.nodes) - 1; i >= 0; i-- {
		n := &s.m.nodes[i]
		if !need[n.out[0]] {
			continue
		}
		rev = append(rev, n)
		for _, in := range n.in {
			need[in] = true
		}
	}
	readers := map[string]int{}
	for _, n := range rev {
		for _, in := range n.in {
			readers[in]++
		}
	}
	isOut := map[string]bool{}
	for _, o := range outputs {
		isOut[o] = true
	}
	p := &plan{}
	for i := len(rev) - 1; i >= 0; i-- {
		p.steps = append(p.steps, step{n: rev[i]})
	}
	for i := range p.steps {
		st := &p.steps[i]
		if st.n.op != "Relu" {
			continue
		}
		src := st.n.in[0]
		for j := i - 1; j >= 0; j-- {
			pr := &p.steps[j]
			if pr.n.out[0] == src && pr.n.op == "Conv" && readers[src] == 1 && !isOut[src] {
				pr.relu, st.skip, st.same = true, true, src
			}
		}
	}
	s.plans[key] = p
	return p
}

// Run computes the named outputs (all of the model's when none are named)
// from the inputs, which need only be those the outputs depend on. The
// returned tensors belong to the session and are valid until its next run.
func (s *Session) Run(inputs map[string]*Tensor, outputs ...string) ([]*Tensor, error) {
	if len(outputs) == 0 {
		outputs = s.m.Outputs
	}
	p := s.plan(outputs)
	get := func(name string) (*Tensor, error) {
		if t, ok := inputs[name]; ok {
			return t, nil
		}
		if t, ok := s.m.weights[name]; ok {
			return t, nil
		}
		if t, ok := s.vals[name]; ok {
			return t, nil
		}
		return nil, fmt.Errorf("onnx: input %q is not given", name)
	}
	for _, st := range p.steps {
		n := st.n
		if st.skip {
			s.vals[n.out[0]] = s.vals[st.same]
			continue
		}
		x, err := get(n.in[0])
		if err != nil {
			return nil, err
		}
		if x.Len() != len(x.Data) {
			return nil, fmt.Errorf("onnx: %s %s: input %q has %d values for shape %v", n.op, n.name, n.in[0], len(x.Data), x.Shape)
		}
		dst := s.vals[n.out[0]]
		if dst == nil {
			dst = &Tensor{}
			s.vals[n.out[0]] = dst
		}
		switch n.op {
		case "Conv":
			var b *Tensor
			if len(n.in) > 2 && n.in[2] != "" {
				b = s.m.weights[n.in[2]]
			}
			err = s.conv(dst, x, s.m.weights[n.in[1]], b, n, st.relu)
		case "Relu":
			dst.reshape(x.Shape...)
			for i, v := range x.Data {
				dst.Data[i] = max(v, 0)
			}
		case "MaxPool":
			err = maxPool(dst, x, n)
		case "GlobalAveragePool":
			err = globalAvg(dst, x)
		case "Flatten":
			if len(x.Shape) < 1 {
				return nil, fmt.Errorf("onnx: Flatten %s: a scalar", n.name)
			}
			dst.reshape(x.Shape[0], x.Len()/max(1, x.Shape[0]))
			copy(dst.Data, x.Data)
		case "Gemm":
			var c *Tensor
			if len(n.in) > 2 && n.in[2] != "" {
				c = s.m.weights[n.in[2]]
			}
			err = gemm(dst, x, s.m.weights[n.in[1]], c)
		case "Add":
			var y *Tensor
			if y, err = get(n.in[1]); err == nil {
				err = add(dst, x, y)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("onnx: %s %s: %w", n.op, n.name, err)
		}
	}
	s.out = s.out[:0]
	for _, o := range outputs {
		t, err := get(o)
		if err != nil {
			return nil, err
		}
		s.out = append(s.out, t)
	}
	return s.out, nil
}

// reshape sets t's shape, growing its buffer only when it is too small.
func (t *Tensor) reshape(shape ...int) {
	t.Shape = append(t.Shape[:0], shape...)
	t.Data = sized(t.Data, t.Len())
}

// sized returns b with length n, reusing its array when it is big enough:
// the sessions' scratch buffers grow to the largest layer and stay.
func sized(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

func geom(n *node, kh, kw int) (stride, dil [2]int, pads [4]int) {
	stride, dil = [2]int{1, 1}, [2]int{1, 1}
	if v := n.attrInts("strides"); len(v) == 2 {
		stride = [2]int{int(v[0]), int(v[1])}
	}
	if v := n.attrInts("dilations"); len(v) == 2 {
		dil = [2]int{int(v[0]), int(v[1])}
	}
	if v := n.attrInts("pads"); len(v) == 4 {
		pads = [4]int{int(v[0]), int(v[1]), int(v[2]), int(v[3])}
	}
	return
}

// conv is a 2-d convolution: by taps (stride 1, where matmul has its
// kernel) or winograd (3×3 of stride 1, where it has none), else by im2col
// and one matrix product (weights × columns).
func (s *Session) conv(dst, x, w, b *Tensor, n *node, relu bool) error {
	if len(x.Shape) != 4 || x.Shape[1] != w.Shape[1] {
		return fmt.Errorf("input %v for weights %v", x.Shape, w.Shape)
	}
	nb, cin, h, wd := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	cout, kh, kw := w.Shape[0], w.Shape[2], w.Shape[3]
	stride, dil, pads := geom(n, kh, kw)
	oh := (h+pads[0]+pads[2]-dil[0]*(kh-1)-1)/stride[0] + 1
	ow := (wd+pads[1]+pads[3]-dil[1]*(kw-1)-1)/stride[1] + 1
	if oh <= 0 || ow <= 0 {
		return fmt.Errorf("input %v is smaller than the kernel", x.Shape)
	}
	dst.reshape(nb, cout, oh, ow)
	wino, tp := s.m.wino[n], s.m.taps[n]
	if wino != nil || tp != nil {
		var bias []float32
		if b != nil {
			bias = b.Data
		}
		for bi := 0; bi < nb; bi++ {
			out, in := dst.Data[bi*cout*oh*ow:(bi+1)*cout*oh*ow], x.Data[bi*cin*h*wd:(bi+1)*cin*h*wd]
			if wino != nil {
				s.wv, s.wm = winograd(out, in, wino, bias, cin, h, wd, cout, oh, ow, pads, relu, s.wv, s.wm)
			} else {
				s.tpad, s.tacc = taps(out, in, tp, bias, cin, h, wd, cout, kh, kw, oh, ow, dil, pads, relu, s.tpad, s.tacc)
			}
		}
		return nil
	}
	np, kk := oh*ow, cin*kh*kw
	direct := kh == 1 && kw == 1 && stride == [2]int{1, 1} && pads == [4]int{}
	if !direct {
		s.col = sized(s.col, kk*np)
	}
	for bi := 0; bi < nb; bi++ {
		xin := x.Data[bi*cin*h*wd : (bi+1)*cin*h*wd]
		var col []float32
		if direct {
			col = xin
		} else {
			col = s.col
			im2col(col, xin, cin, h, wd, kh, kw, oh, ow, stride, dil, pads)
		}
		out := dst.Data[bi*cout*np : (bi+1)*cout*np]
		for m := 0; m < cout; m++ {
			bias := float32(0)
			if b != nil {
				bias = b.Data[m]
			}
			o := out[m*np : (m+1)*np]
			for i := range o {
				o[i] = bias
			}
		}
		matmul(cout, np, kk, w.Data, kk, col, np, out, np)
		if relu {
			for i, v := range out {
				out[i] = max(v, 0)
			}
		}
	}
	return nil
}

func im2col(col, x []float32, cin, h, w, kh, kw, oh, ow int, stride, dil [2]int, pads [4]int) {
	np := oh * ow
	r := 0
	for c := 0; c < cin; c++ {
		plane := x[c*h*w : (c+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			for kj := 0; kj < kw; kj++ {
				row := col[r*np : (r+1)*np]
				r++
				dx := kj*dil[1] - pads[1]
				for oy := 0; oy < oh; oy++ {
					iy := oy*stride[0] - pads[0] + ki*dil[0]
					seg := row[oy*ow : (oy+1)*ow]
					if iy < 0 || iy >= h {
						clear(seg)
						continue
					}
					src := plane[iy*w : (iy+1)*w]
					if stride[1] == 1 {
						// the columns whose source is inside the row
						lo := max(0, -dx)
						hi := min(ow, w-dx)
						if hi <= lo {
							clear(seg)
							continue
						}
						clear(seg[:lo])
						copy(seg[lo:hi], src[lo+dx:hi+dx])
						clear(seg[hi:])
						continue
					}
					for ox := range seg {
						ix := ox*stride[1] + dx
						if ix >= 0 && ix < w {
							seg[ox] = src[ix]
						} else {
							seg[ox] = 0
						}
					}
				}
			}
		}
	}
}

func maxPool(dst, x *Tensor, n *node) error {
	if len(x.Shape) != 4 {
		return fmt.Errorf("input %v", x.Shape)
	}
	k := n.attrInts("kernel_shape")
	kh, kw := int(k[0]), int(k[1])
	stride, _, pads := geom(n, kh, kw)
	if n.attrInts("strides") == nil {
		stride = [2]int{1, 1}
	}
	nb, c, h, w := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	oh := (h+pads[0]+pads[2]-kh)/stride[0] + 1
	ow := (w+pads[1]+pads[3]-kw)/stride[1] + 1
	if oh <= 0 || ow <= 0 {
		return fmt.Errorf("input %v is smaller than the window", x.Shape)
	}
	dst.reshape(nb, c, oh, ow)
	for p := 0; p < nb*c; p++ {
		src := x.Data[p*h*w : (p+1)*h*w]
		out := dst.Data[p*oh*ow : (p+1)*oh*ow]
		for oy := 0; oy < oh; oy++ {
			for ox := 0; ox < ow; ox++ {
				m := float32(0)
				first := true
				for i := 0; i < kh; i++ {
					iy := oy*stride[0] - pads[0] + i
					if iy < 0 || iy >= h {
						continue
					}
					for j := 0; j < kw; j++ {
						ix := ox*stride[1] - pads[1] + j
						if ix < 0 || ix >= w {
							continue
						}
						if v := src[iy*w+ix]; first || v > m {
							m, first = v, false
						}
					}
				}
				out[oy*ow+ox] = m
			}
		}
	}
	return nil
}

func globalAvg(dst, x *Tensor) error {
	if len(x.Shape) != 4 {
		return fmt.Errorf("input %v", x.Shape)
	}
	nb, c, hw := x.Shape[0], x.Shape[1], x.Shape[2]*x.Shape[3]
	dst.reshape(nb, c, 1, 1)
	for p := 0; p < nb*c; p++ {
		s := float32(0)
		for _, v := range x.Data[p*hw : (p+1)*hw] {
			s += v
		}
		dst.Data[p] = s / float32(hw)
	}
	return nil
}

func gemm(dst, a, b, c *Tensor) error {
	if len(a.Shape) != 2 || a.Shape[1] != b.Shape[1] {
		return fmt.Errorf("A %v for B %v", a.Shape, b.Shape)
	}
	n, k, m := a.Shape[0], a.Shape[1], b.Shape[0]
	dst.reshape(n, m)
	for i := 0; i < n; i++ {
		ar := a.Data[i*k : (i+1)*k]
		for j := 0; j < m; j++ {
			br := b.Data[j*k : (j+1)*k]
			br = br[:len(ar)]
			s := float32(0)
			if c != nil {
				s = c.Data[j]
			}
			for q, v := range ar {
				s += v * br[q]
			}
			dst.Data[i*m+j] = s
		}
	}
	return nil
}

func add(dst, x, y *Tensor) error {
	if len(x.Data) != len(y.Data) {
		return fmt.Errorf("shapes %v and %v", x.Shape, y.Shape)
	}
	dst.reshape(x.Shape...)
	for i, v := range x.Data {
		dst.Data[i] = v + y.Data[i]
	}
	return nil
}
