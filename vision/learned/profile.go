package learned

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/parchis-table/parchis/vision"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Profile is what a venue teaches the table of its own dice: for each face
// the mean of the classifier's embeddings of a few labelled photos of it.
// A [Reader] with a profile mixes the network's probabilities of the faces
// with how near the die's embedding lies to each face's mean, so dice of a
// style the network never saw are read by their likeness to the photos,
// without retraining.
type Profile struct {
	// Model is the SHA-256 of the model the profile was taught with: an
	// embedding means nothing to another model.
	Model string `json:"model"`
	// Faces holds, per face 1…6, the unit mean embedding.
	Faces [6][]float32 `json:"faces"`
	// Photos is how many photos of each face were taught.
	Photos [6]int `json:"photos"`
}

// profileSharpness turns cosine similarities into probabilities: a die 0.1
// nearer one face's mean than another's is about e² times likelier that
// face. A stronger profile reads more and errs more (each source left out
// of training, 3 photos a face taught, against this one and the square
// root in adjust): sharpness 40 or the likeness weighed in full read up
// to 3 points more (skovy_catan_webcam 66.2% against 63.2%) but gave
// dice3_roboflow_v3 1.10% wrong values against 0.55%, awsvegas_dice 0.59%
// against 0.49%, banachowicz_rpgsets 0.23% against none.
//
// A fourth witness of a die the classifier is unsure of, the profile
// alone (the network leaning to a face with at least 0.9, the die nearer
// that face's photos than any other's by 0.1 in cosine), was measured and
// not taken: each source left out of training, 3 photos a face taught, it
// read 0 to 0.9 points more but gave awsvegas_dice and dice3_roboflow_v3
// one wrong value more each (dice3_roboflow_v3 1.10% against 0.55%).
const profileSharpness = 20

// adjust weighs the probabilities of the faces (probs[0:6]) by the
// likeness of emb to each face's mean (its square root: the network stays
// the main witness, the profile sharpens what they agree on and lowers
// what they do not); the probabilities of edge and none are kept.
func (p *Profile) adjust(probs []float64, emb []float32) {
	mass := 0.0
	for _, v := range probs[:6] {
		mass += v
	}
	if mass <= 0 {
		return
	}
	var q [6]float64
	sims := p.similarities(emb)
	softmax(q[:], sims[:], 1/float64(profileSharpness))
	s := 0.0
	for k := range 6 {
		q[k] = probs[k] / mass * math.Sqrt(q[k])
		s += q[k]
	}
	if s == 0 {
		return
	}
	for k := range 6 {
		probs[k] = q[k] / s * mass
	}
}

// similarities returns the cosine of emb with each face's mean.
func (p *Profile) similarities(emb []float32) [6]float64 {
	var out [6]float64
	u := unit(emb)
	for k, c := range p.Faces {
		out[k] = dot(u, c)
	}
	return out
}

func unit(v []float32) []float32 {
	n := 0.0
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	n = math.Sqrt(n)
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

func dot(a, b []float32) float64 {
	s := 0.0
	for i := range min(len(a), len(b)) {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TeachPhoto is one labelled photo of the venue's dice.
type TeachPhoto struct {
	Name  string // the file, named in errors
	Image image.Image
	Face  int // 1…6
}

// Teach makes a profile from labelled photos: every face at least once
// (two or three each are better). Each photo must show one readable die;
// a photo whose die looks more like another face than like the other
// photos of its own (a "5" that shows a 2) is refused, naming it, since a
// profile taught a wrong face would read that face wrong.
func Teach(m *Model, photos []TeachPhoto) (*Profile, error) {
	if m == nil {
		m = DefaultModel()
	}
	rd := NewReader(&Opts{Model: m, NetworkOnly: true}) // the profile is the network's
	embs := make([][]float32, len(photos))
	top := make([]int, len(photos)) // the face the network reads most likely
	p := &Profile{Model: m.sum}
	var errs []error
	for i, ph := range photos {
		if ph.Face < 1 || ph.Face > 6 {
			errs = append(errs, fmt.Errorf("%s: face %d, want 1…6", ph.Name, ph.Face))
			continue
		}
		r := rd.ReadImage(ph.Image)
		if r.Answer == vision.None {
			// a photo framed on one die, which the detector missed: the
			// die is the photo's middle, as a crop is cut
			b := ph.Image.Bounds()
			d := det{cx: float64(b.Min.X+b.Max.X) / 2, cy: float64(b.Min.Y+b.Max.Y) / 2,
				side: float64(max(b.Dx(), b.Dy())) / m.faceScale, score: 1}
			r = rd.classify(pixelsOf(ph.Image), &d)
			if rd.probs[m.classNone] >= noneProb {
				errs = append(errs, fmt.Errorf("%s: no die found: the photo must show one die", ph.Name))
				continue
			}
		}
		switch r.Answer {
		case vision.Multi:
			errs = append(errs, fmt.Errorf("%s: several dice: the photo must show one die", ph.Name))
			continue
		case vision.Edge:
			errs = append(errs, fmt.Errorf("%s: the die is on an edge: photograph it lying flat", ph.Name))
			continue
		}
		if r.Answer == vision.Value && r.Value != ph.Face && r.Confidence >= 0.99 {
			errs = append(errs, fmt.Errorf("%s: labelled %d but reads as a %d for certain: check the label", ph.Name, ph.Face, r.Value))
			continue
		}
		top[i] = argmax(rd.probs[:6]) + 1
		embs[i] = unit(rd.emb)
		p.Photos[ph.Face-1]++
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("teach: %w", errors.Join(errs...))
	}
	var missing []string
	for k, n := range p.Photos {
		if n == 0 {
			missing = append(missing, strconv.Itoa(k+1))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("teach: no photo of face %s: show every face at least once", strings.Join(missing, ", "))
	}
	p.Faces = means(photos, embs, -1)
	// each photo against the means of the others: a photo nearer another
	// face's photos than its own, which the network reads as that other
	// face too, is labelled wrong (either alone is no proof: two photos of
	// a face are few, and the network may not know the venue's dice)
	for i, ph := range photos {
		others := means(photos, embs, i)
		own := ph.Face - 1
		if others[own] == nil {
			continue // the only photo of its face: nothing to compare with
		}
		u := embs[i]
		so := dot(u, others[own])
		for k, c := range others {
			if k != own && c != nil && dot(u, c) > so && top[i] == k+1 {
				errs = append(errs, fmt.Errorf("%s: labelled %d but looks more like the photos of %d than those of %d: check the label", ph.Name, ph.Face, k+1, ph.Face))
				break
			}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("teach: %w", errors.Join(errs...))
	}
	return p, nil
}

// means returns each face's unit mean embedding, leaving out photo skip.
func means(photos []TeachPhoto, embs [][]float32, skip int) [6][]float32 {
	var sum [6][]float32
	for i, ph := range photos {
		if i == skip || embs[i] == nil {
			continue
		}
		k := ph.Face - 1
		if sum[k] == nil {
			sum[k] = make([]float32, len(embs[i]))
		}
		for j, v := range embs[i] {
			sum[k][j] += v
		}
	}
	for k := range sum {
		if sum[k] != nil {
			sum[k] = unit(sum[k])
		}
	}
	return sum
}

// WriteJSON writes the profile.
func (p *Profile) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadProfile reads a profile written by [Profile.WriteJSON] and checks it
// against the model it will be used with (nil: the embedded one).
func ReadProfile(r io.Reader, m *Model) (*Profile, error) {
	if m == nil {
		m = DefaultModel()
	}
	var p Profile
	dec := json.NewDecoder(io.LimitReader(r, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	if p.Model != m.sum {
		return nil, fmt.Errorf("profile: taught with model %.12s…, not with this one (%.12s…): teach it again", p.Model, m.sum)
	}
	dim := -1
	for k, c := range p.Faces {
		if len(c) == 0 || p.Photos[k] <= 0 {
			return nil, fmt.Errorf("profile: face %d has no photos", k+1)
		}
		if dim >= 0 && len(c) != dim {
			return nil, fmt.Errorf("profile: face %d has %d values, face 1 %d", k+1, len(c), dim)
		}
		dim = len(c)
		for _, v := range c {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("profile: face %d holds %v", k+1, v)
			}
		}
	}
	return &p, nil
}

// LoadProfile reads a profile file (the config's camera.profile) for the
// model m (nil: the embedded one).
func LoadProfile(path string, m *Model) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	defer f.Close()
	p, err := ReadProfile(f, m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// WriteProfileFile writes p to path atomically: a profile is never left
// half written.
func WriteProfileFile(path string, p *Profile) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".profile-*")
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := p.WriteJSON(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("profile %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("profile %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("profile %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	return nil
}

// ReadTeachPhotos reads a labels file of teach photos (file,label rows,
// paths absolute or relative to the file's folder, labels 1…6) and
// decodes each photo with decode. Every problem is reported at once, each
// naming its line or photo.
func ReadTeachPhotos(labels string, decode func(string) (image.Image, error)) ([]TeachPhoto, error) {
	f, err := os.Open(labels)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ls, err := vision.ReadLabels(f)
	var errs []error
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", labels, err))
	}
	var out []TeachPhoto
	for _, l := range ls {
		if l.Want.Answer != vision.Value {
			errs = append(errs, fmt.Errorf("%s: line %d: label %s: teach takes faces 1…6", labels, l.Line, l.Want))
			continue
		}
		p := l.File
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(labels), p)
		}
		img, err := decode(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", l.Line, err))
			continue
		}
		out = append(out, TeachPhoto{Name: p, Image: img, Face: l.Want.Value})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no photos", labels)
	}
	return out, nil
}

func argmax(v []float64) int {
	bi := 0
	for i, x := range v {
		if x > v[bi] {
			bi = i
		}
	}
	return bi
}
