package report

import (
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"

	"github.com/ddbharness/ddbharness/bench"
	"github.com/ddbharness/ddbharness/bench/engine"
)

// PlotPoints bounds the points of each series of plot.html: vegeta's plot
// downsamples longer runs, keeping their shape.
const PlotPoints = 4000

// WriteResults writes every call of out's results file (none without
// one) as vegeta's gob-encoded Results, the format `vegeta report`,
// `vegeta plot` and `vegeta encode` read: a copy of it.
func WriteResults(w io.Writer, out bench.Outcome) error {
	if out.ResultsFile == "" {
		return nil
	}
	f, err := os.Open(out.ResultsFile)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// WritePlot writes vegeta's interactive latency plot of the run: one
// series per pattern, successes and errors apart. The calls are read from
// the results file one at a time; the plot keeps each as a compressed
// point (a few bytes) until it downsamples them.
func WritePlot(w io.Writer, out bench.Outcome) error {
	p := plot.New(plot.Title(StatusOf(out).Title(out)), plot.Downsample(PlotPoints), plot.Label(outcomeLabel))
	if out.ResultsFile != "" {
		if err := engine.ReadResults(out.ResultsFile, p.Add); err != nil {
			return err
		}
	}
	p.Close()
	_, err := p.WriteTo(w)
	return err
}

// outcomeLabel splits each pattern's series of plot.html into OK,
// REFUSED and ERROR, where vegeta's own labeler would call a refusal,
// which carries its class as an error text, an error.
func outcomeLabel(r *vegeta.Result) string {
	switch {
	case r.Code == engine.StatusRefused:
		return "REFUSED"
	case engine.Failed(r.Code):
		return "ERROR"
	}
	return "OK"
}

// finiteCopy returns a deep copy of v with every NaN or infinite float
// set to 0, and the paths of those it changed: JSON has no such numbers,
// and one of them must not cost the whole file.
func finiteCopy[T any](v T) (T, []string) {
	var bad []string
	c := finiteValue(reflect.ValueOf(v), "", &bad)
	return c.Interface().(T), bad
}

func finiteValue(v reflect.Value, path string, bad *[]string) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			*bad = append(*bad, strings.TrimPrefix(path, "."))
			out.SetFloat(0)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(finiteValue(v.Elem(), path, bad))
			out.Set(p)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				out.Field(i).Set(finiteValue(v.Field(i), path+"."+f.Name, bad))
			}
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			for i := range v.Len() {
				s.Index(i).Set(finiteValue(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad))
			}
			out.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(finiteValue(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad))
		}
	case reflect.Map:
		if !v.IsNil() {
			mp := reflect.MakeMapWithSize(v.Type(), v.Len())
			for it := v.MapRange(); it.Next(); {
				mp.SetMapIndex(it.Key(), finiteValue(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), bad))
			}
			out.Set(mp)
		}
	case reflect.Interface:
		if !v.IsNil() {
			out.Set(finiteValue(v.Elem(), path, bad))
		}
	}
	return out
}
