package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image"
	"os"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
)

// dumpWriter writes, for each crop, what the readers make of it, for
// choosing how their answers combine: the network with every value
// accepted (its top face and confidence), and the pip rules.
type dumpWriter struct {
	f    *os.File
	w    *bufio.Writer
	enc  *json.Encoder
	src  string
	net  *learned.Reader
	pips *vision.Reader
}

// dumpLine is one crop's line.
type dumpLine struct {
	Source  string  `json:"source"`
	File    string  `json:"file"`
	Want    string  `json:"want"`
	Size    float64 `json:"size"` // the die's box side, 0 if unknown
	Net     string  `json:"net"`
	NetConf float64 `json:"net_conf"`
	Pips    string  `json:"pips"`
	PipConf float64 `json:"pip_conf"`
	// the network's probabilities of 1…6, edge and none, and its
	// embedding, of the die it read last (the only one, in a crop)
	Probs []float64 `json:"probs"`
	Emb   []float32 `json:"emb"`
}

func newDumpWriter(path, src string, o learned.Opts) (*dumpWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("dump: %w", err)
	}
	o.MinConfidence = 1e-9
	o.NetworkOnly = true
	w := bufio.NewWriter(f)
	return &dumpWriter{f: f, w: w, enc: json.NewEncoder(w), src: src, net: learned.NewReader(&o), pips: vision.NewReader(nil)}, nil
}

func (d *dumpWriter) add(l vision.Label, img image.Image, size float64) {
	n := d.net.ReadImage(img)
	probs, emb := d.net.Scores()
	p := d.pips.ReadImage(img)
	d.enc.Encode(dumpLine{Source: d.src, File: l.File, Want: l.Want.Label(), Size: size,
		Net: n.Label(), NetConf: n.Confidence, Pips: p.Label(), PipConf: p.Confidence, Probs: probs, Emb: emb})
}

func (d *dumpWriter) close() error {
	if err := d.w.Flush(); err != nil {
		d.f.Close()
		return fmt.Errorf("dump: %w", err)
	}
	return d.f.Close()
}
