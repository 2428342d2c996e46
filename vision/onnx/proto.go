package onnx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The protobuf wire format, as far as ONNX models need it: varints,
// length-delimited fields, 32- and 64-bit fixed fields.

var errTruncated = errors.New("truncated")

type pbuf struct {
	b []byte
}

func (p *pbuf) done() bool { return len(p.b) == 0 }

func (p *pbuf) varint() (uint64, error) {
	v, n := binary.Uvarint(p.b)
	if n <= 0 {
		return 0, errors.New("bad varint")
	}
	p.b = p.b[n:]
	return v, nil
}

// next returns the next field's number, wire type and, for a
// length-delimited field, its bytes; for a varint, its value in v; for
// fixed fields, the raw bytes.
func (p *pbuf) next() (num int, wt int, v uint64, data []byte, err error) {
	key, err := p.varint()
	if err != nil {
		return 0, 0, 0, nil, err
	}
	num, wt = int(key>>3), int(key&7)
	if num <= 0 {
		return 0, 0, 0, nil, fmt.Errorf("field number %d", num)
	}
	switch wt {
	case 0:
		v, err = p.varint()
	case 1:
		if len(p.b) < 8 {
			return 0, 0, 0, nil, errTruncated
		}
		data, p.b = p.b[:8], p.b[8:]
	case 2:
		var n uint64
		if n, err = p.varint(); err != nil {
			return
		}
		if n > uint64(len(p.b)) {
			return 0, 0, 0, nil, errTruncated
		}
		data, p.b = p.b[:n], p.b[n:]
	case 5:
		if len(p.b) < 4 {
			return 0, 0, 0, nil, errTruncated
		}
		data, p.b = p.b[:4], p.b[4:]
	default:
		return 0, 0, 0, nil, fmt.Errorf("wire type %d", wt)
	}
	return num, wt, v, data, err
}

// ints appends a repeated int64 field, packed or not.
func ints(dst []int64, wt int, v uint64, data []byte) ([]int64, error) {
	if wt == 0 {
		return append(dst, int64(v)), nil
	}
	if wt != 2 {
		return dst, fmt.Errorf("ints: wire type %d", wt)
	}
	q := pbuf{data}
	for !q.done() {
		x, err := q.varint()
		if err != nil {
			return dst, err
		}
		dst = append(dst, int64(x))
	}
	return dst, nil
}

// floats appends a repeated float field, packed or not.
func floats(dst []float32, wt int, data []byte) ([]float32, error) {
	switch wt {
	case 5:
		return append(dst, math.Float32frombits(binary.LittleEndian.Uint32(data))), nil
	case 2:
		if len(data)%4 != 0 {
			return dst, errors.New("floats: length not a multiple of 4")
		}
		for i := 0; i < len(data); i += 4 {
			dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(data[i:])))
		}
		return dst, nil
	}
	return dst, fmt.Errorf("floats: wire type %d", wt)
}
