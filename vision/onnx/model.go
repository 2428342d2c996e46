// Package onnx runs small convolutional networks stored in the standard
// ONNX format, in pure Go: it parses the model file and interprets exactly
// the operators the die recogniser's networks use (Conv, Relu, MaxPool,
// GlobalAveragePool, Flatten, Gemm, Add), in float32, NCHW. A model using
// any other operator, attribute value or data type is refused when it is
// loaded, naming what is not supported, never run approximately.
//
// Without cgo: the matrix products that take nearly all the time have a
// kernel in Go assembly for amd64 (AVX2, FMA) and arm64 (NEON), which
// the Go toolchain builds like any Go file; elsewhere (linux/arm GOARM=6)
// and with the purego build tag they run in plain Go.
//
// A [Model] is immutable and may be shared; a [Session] holds the buffers
// of one run and is not safe for concurrent use.
package onnx

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Model is a parsed ONNX graph with its weights.
type Model struct {
	Inputs  []string          // the graph's inputs that are not weights
	Outputs []string          // the graph's outputs
	Meta    map[string]string // metadata_props
	nodes   []node
	weights map[string]*Tensor
	wino    map[*node][]float32 // the kernels of the Convs done by winograd, transformed
	taps    map[*node][]float32 // the kernels of the Convs done by taps, a matrix a tap
}

// Tensor is a dense float32 tensor.
type Tensor struct {
	Shape []int
	Data  []float32
}

// Len is the number of elements the shape holds.
func (t *Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

type node struct {
	op      string
	name    string
	in, out []string
	ints    map[string][]int64
	fls     map[string]float32
}

func (n *node) attrInts(k string, def ...int64) []int64 {
	if v, ok := n.ints[k]; ok {
		return v
	}
	return def
}

func (n *node) attrInt(k string, def int64) int64 {
	if v, ok := n.ints[k]; ok && len(v) == 1 {
		return v[0]
	}
	return def
}

// Parse reads an ONNX model (the bytes of a .onnx file).
func Parse(b []byte) (*Model, error) {
	m := &Model{Meta: map[string]string{}, weights: map[string]*Tensor{}}
	p := pbuf{b}
	var graph []byte
	for !p.done() {
		num, wt, _, data, err := p.next()
		if err != nil {
			return nil, fmt.Errorf("onnx: model: %w", err)
		}
		switch {
		case num == 7 && wt == 2:
			graph = data
		case num == 14 && wt == 2:
			k, v, err := stringPair(data)
			if err != nil {
				return nil, fmt.Errorf("onnx: metadata: %w", err)
			}
			m.Meta[k] = v
		}
	}
	if graph == nil {
		return nil, errors.New("onnx: no graph in the model")
	}
	if err := m.parseGraph(graph); err != nil {
		return nil, fmt.Errorf("onnx: graph: %w", err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	m.wino = map[*node][]float32{}
	m.taps = map[*node][]float32{}
	for i := range m.nodes {
		n := &m.nodes[i]
		if n.op != "Conv" {
			continue
		}
		w := m.weights[n.in[1]]
		// by winograd only where matmul has no kernel: winograd.go says why
		stride, dil, _ := geom(n, 3, 3)
		switch {
		case !haveKernel && winogradOK(w, stride, dil):
			m.wino[n] = winogradWeights(w)
		case tapsOK(w, stride):
			m.taps[n] = tapsWeights(w)
		}
	}
	return m, nil
}

func stringPair(b []byte) (k, v string, err error) {
	p := pbuf{b}
	for !p.done() {
		num, wt, _, data, err := p.next()
		if err != nil {
			return "", "", err
		}
		if wt == 2 && num == 1 {
			k = string(data)
		} else if wt == 2 && num == 2 {
			v = string(data)
		}
	}
	return k, v, nil
}

func (m *Model) parseGraph(b []byte) error {
	p := pbuf{b}
	var inputs []string
	for !p.done() {
		num, wt, _, data, err := p.next()
		if err != nil {
			return err
		}
		if wt != 2 {
			continue
		}
		switch num {
		case 1:
			n, err := parseNode(data)
			if err != nil {
				return fmt.Errorf("node %d: %w", len(m.nodes), err)
			}
			m.nodes = append(m.nodes, n)
		case 5:
			name, t, err := parseTensor(data)
			if err != nil {
				return fmt.Errorf("initializer %q: %w", name, err)
			}
			m.weights[name] = t
		case 11, 12:
			name, err := valueName(data)
			if err != nil {
				return err
			}
			if num == 11 {
				inputs = append(inputs, name)
			} else {
				m.Outputs = append(m.Outputs, name)
			}
		}
	}
	for _, in := range inputs {
		if _, ok := m.weights[in]; !ok {
			m.Inputs = append(m.Inputs, in)
		}
	}
	return nil
}

func valueName(b []byte) (string, error) {
	p := pbuf{b}
	for !p.done() {
		num, wt, _, data, err := p.next()
		if err != nil {
			return "", err
		}
		if num == 1 && wt == 2 {
			return string(data), nil
		}
	}
	return "", errors.New("value without a name")
}

func parseNode(b []byte) (node, error) {
	n := node{ints: map[string][]int64{}, fls: map[string]float32{}}
	p := pbuf{b}
	for !p.done() {
		num, wt, _, data, err := p.next()
		if err != nil {
			return n, err
		}
		if wt != 2 {
			continue
		}
		switch num {
		case 1:
			n.in = append(n.in, string(data))
		case 2:
			n.out = append(n.out, string(data))
		case 3:
			n.name = string(data)
		case 4:
			n.op = string(data)
		case 5:
			if err := n.parseAttr(data); err != nil {
				return n, fmt.Errorf("%s %s: %w", n.op, n.name, err)
			}
		case 7:
			if d := string(data); d != "" && d != "ai.onnx" {
				return n, fmt.Errorf("operator domain %q is not supported", d)
			}
		}
	}
	return n, nil
}

func (n *node) parseAttr(b []byte) error {
	p := pbuf{b}
	var name string
	var is []int64
	var f float32
	hasF := false
	for !p.done() {
		num, wt, v, data, err := p.next()
		if err != nil {
			return err
		}
		switch num {
		case 1:
			name = string(data)
		case 2:
			fs, err := floats(nil, wt, data)
			if err != nil || len(fs) != 1 {
				return fmt.Errorf("attribute %q: bad float", name)
			}
			f, hasF = fs[0], true
		case 3:
			is = append(is, int64(v))
		case 8:
			if is, err = ints(is, wt, v, data); err != nil {
				return fmt.Errorf("attribute %q: %w", name, err)
			}
		}
	}
	if name == "" {
		return errors.New("attribute without a name")
	}
	if hasF {
		n.fls[name] = f
	} else {
		n.ints[name] = is
	}
	return nil
}

// maxElems bounds a weight's size: the models this runs are small, and a
// corrupt file must not make it allocate gigabytes.
const maxElems = 1 << 24

func parseTensor(b []byte) (string, *Tensor, error) {
	p := pbuf{b}
	var name string
	var dims []int64
	dtype := int64(-1)
	var fl []float32
	var raw []byte
	for !p.done() {
		num, wt, v, data, err := p.next()
		if err != nil {
			return name, nil, err
		}
		switch num {
		case 1:
			if dims, err = ints(dims, wt, v, data); err != nil {
				return name, nil, err
			}
		case 2:
			dtype = int64(v)
		case 4:
			if fl, err = floats(fl, wt, data); err != nil {
				return name, nil, err
			}
		case 8:
			name = string(data)
		case 9:
			raw = data
		case 14:
			if v != 0 {
				return name, nil, errors.New("external data is not supported")
			}
		}
	}
	if dtype != 1 {
		return name, nil, fmt.Errorf("data type %d is not supported (float32 only)", dtype)
	}
	t := &Tensor{}
	n := 1
	for _, d := range dims {
		if d < 0 || d > maxElems {
			return name, nil, fmt.Errorf("dimension %d", d)
		}
		t.Shape = append(t.Shape, int(d))
		n *= int(d)
		if n > maxElems {
			return name, nil, fmt.Errorf("%v: too large", dims)
		}
	}
	if raw != nil {
		if len(raw) != 4*n {
			return name, nil, fmt.Errorf("raw data of %d bytes for %d floats", len(raw), n)
		}
		fl, _ = floats(nil, 2, raw)
	}
	if len(fl) != n {
		return name, nil, fmt.Errorf("%d values for shape %v", len(fl), dims)
	}
	t.Data = fl
	return name, t, nil
}

// supported lists the operators and, for each, a check of its attributes.
var supported = map[string]func(m *Model, n *node) error{
	"Conv": func(m *Model, n *node) error {
		if g := n.attrInt("group", 1); g != 1 {
			return fmt.Errorf("group %d (only 1)", g)
		}
		if len(n.in) < 2 || m.weights[n.in[1]] == nil || len(m.weights[n.in[1]].Shape) != 4 {
			return errors.New("the weights must be a 4-d initializer")
		}
		w := m.weights[n.in[1]]
		if len(n.in) > 2 && n.in[2] != "" {
			if b := m.weights[n.in[2]]; b == nil || b.Len() != w.Shape[0] {
				return errors.New("the bias must be an initializer of one value per output channel")
			}
		}
		if k := n.attrInts("kernel_shape"); k != nil && (len(k) != 2 || int(k[0]) != w.Shape[2] || int(k[1]) != w.Shape[3]) {
			return fmt.Errorf("kernel_shape %v does not match the weights %v", k, w.Shape)
		}
		return checkGeom(n, true)
	},
	"MaxPool": func(m *Model, n *node) error {
		if n.attrInt("ceil_mode", 0) != 0 || n.attrInt("storage_order", 0) != 0 {
			return errors.New("ceil_mode and storage_order must be 0")
		}
		if k := n.attrInts("kernel_shape"); len(k) != 2 || k[0] <= 0 || k[1] <= 0 {
			return fmt.Errorf("kernel_shape %v", k)
		}
		return checkGeom(n, false)
	},
	"Relu":              func(*Model, *node) error { return nil },
	"GlobalAveragePool": func(*Model, *node) error { return nil },
	"Add":               func(*Model, *node) error { return nil },
	"Flatten": func(m *Model, n *node) error {
		if a := n.attrInt("axis", 1); a != 1 {
			return fmt.Errorf("axis %d (only 1)", a)
		}
		return nil
	},
	"Gemm": func(m *Model, n *node) error {
		if n.attrInt("transA", 0) != 0 || n.attrInt("transB", 0) != 1 {
			return errors.New("only transA=0, transB=1")
		}
		for _, k := range []string{"alpha", "beta"} {
			if v, ok := n.fls[k]; ok && v != 1 {
				return fmt.Errorf("%s %g (only 1)", k, v)
			}
		}
		if len(n.in) < 2 || m.weights[n.in[1]] == nil || len(m.weights[n.in[1]].Shape) != 2 {
			return errors.New("B must be a 2-d initializer")
		}
		if len(n.in) > 2 && n.in[2] != "" {
			if c := m.weights[n.in[2]]; c == nil || c.Len() != m.weights[n.in[1]].Shape[0] {
				return errors.New("C must be an initializer of one value per output")
			}
		}
		return nil
	},
}

func checkGeom(n *node, dil bool) error {
	for _, k := range []string{"strides", "dilations"} {
		for _, v := range n.attrInts(k) {
			if v < 1 || v > 64 {
				return fmt.Errorf("%s %v", k, n.attrInts(k))
			}
		}
	}
	if d := n.attrInts("dilations"); !dil && d != nil && slices.ContainsFunc(d, func(v int64) bool { return v != 1 }) {
		return fmt.Errorf("dilations %v", d)
	}
	if p := n.attrInts("pads"); p != nil && (len(p) != 4 || slices.ContainsFunc(p, func(v int64) bool { return v < 0 || v > 64 })) {
		return fmt.Errorf("pads %v", p)
	}
	if s, ok := n.ints["auto_pad"]; ok && len(s) > 0 {
		return errors.New("auto_pad is not supported")
	}
	return nil
}

// check refuses what the interpreter cannot run, naming it.
func (m *Model) check() error {
	known := map[string]bool{}
	for _, in := range m.Inputs {
		known[in] = true
	}
	for k := range m.weights {
		known[k] = true
	}
	for i := range m.nodes {
		n := &m.nodes[i]
		ck, ok := supported[n.op]
		if !ok {
			return fmt.Errorf("node %d (%s): operator %q is not supported", i, n.name, n.op)
		}
		if len(n.in) == 0 || len(n.out) != 1 {
			return fmt.Errorf("node %d (%s %s): want inputs and one output", i, n.op, n.name)
		}
		for _, in := range n.in {
			if in != "" && !known[in] {
				return fmt.Errorf("node %d (%s %s): input %q is not computed before it", i, n.op, n.name, in)
			}
		}
		if err := ck(m, n); err != nil {
			return fmt.Errorf("node %d (%s %s): %w", i, n.op, n.name, err)
		}
		known[n.out[0]] = true
	}
	for _, o := range m.Outputs {
		if !known[o] {
			return fmt.Errorf("output %q is computed by no node", o)
		}
	}
	if len(m.Inputs) == 0 {
		return errors.New("the graph has no input")
	}
	return nil
}

// MetaFloat returns the metadata value k as a number.
func (m *Model) MetaFloat(k string) (float64, error) {
	v, ok := m.Meta[k]
	if !ok {
		return 0, fmt.Errorf("onnx: metadata %q is missing", k)
	}
	var f float64
	if _, err := fmt.Sscan(strings.TrimSpace(v), &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("onnx: metadata %q: %q is not a number", k, v)
	}
	return f, nil
}
