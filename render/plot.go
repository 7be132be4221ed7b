package render

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/pipeline"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// corrGrid is the heatmap grid of a correlation matrix: column c is
// variable c, row r variable n−1−r (so the first variable is on top).
type corrGrid struct{ mat analysis.Matrix }

func (g corrGrid) Dims() (c, r int) { return len(g.mat.Variables), len(g.mat.Variables) }

func (g corrGrid) X(c int) float64 { return float64(c) }

func (g corrGrid) Y(r int) float64 { return float64(r) }

func (g corrGrid) Z(c, r int) float64 {
	n := len(g.mat.Variables)
	cr, _ := g.mat.Get(g.mat.Variables[c], g.mat.Variables[n-1-r])
	if cr.Spearman == nil {
		return math.NaN()
	}
	return *cr.Spearman
}

// HeatmapPNG draws Spearman's rho of every pair, grey where null, with the
// value written in each cell when there are at most 30 variables.
func HeatmapPNG(w io.Writer, mat analysis.Matrix, title string) error {
	n := len(mat.Variables)
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(-1)
	cmap.SetMax(1)
	h := plotter.NewHeatMap(corrGrid{mat}, cmap.Palette(255))
	h.Min, h.Max = -1, 1
	h.NaN = color.Gray{Y: 200}
	p := plot.New()
	p.Title.Text = title
	p.Add(h)
	p.NominalX(mat.Variables...)
	rev := make([]string, n)
	for i, v := range mat.Variables {
		rev[n-1-i] = v
	}
	p.NominalY(rev...)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	if n <= 30 {
		var xys plotter.XYs
		var labels []string
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				z := corrGrid{mat}.Z(c, r)
				if math.IsNaN(z) {
					continue
				}
				xys = append(xys, plotter.XY{X: float64(c), Y: float64(r)})
				labels = append(labels, fmt.Sprintf("%.2f", z))
			}
		}
		if len(xys) > 0 {
			l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
			if err != nil {
				return err
			}
			for i := range l.TextStyle {
				l.TextStyle[i].Font.Size = vg.Points(7)
				l.TextStyle[i].XAlign = draw.XCenter
				l.TextStyle[i].YAlign = draw.YCenter
			}
			p.Add(l)
		}
	}
	bar := plot.New()
	bar.HideX()
	bar.Y.Label.Text = "Spearman rho (grey: null)"
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true})
	side := vg.Length(n)*vg.Points(28) + 3*vg.Inch
	barW := 1.2 * vg.Inch
	img := vgimg.NewWith(vgimg.UseWH(side+barW, side), vgimg.UseDPI(96))
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -barW, 0, 0))
	bar.Draw(draw.Crop(dc, side+vg.Points(10), 0, 2*vg.Inch, -vg.Inch))
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// tilesPNG draws the plots in a grid of cols columns.
func tilesPNG(w io.Writer, plots []*plot.Plot, cols int, tileW, tileH vg.Length) error {
	if len(plots) == 0 {
		p := plot.New()
		p.Title.Text = "no data"
		plots = []*plot.Plot{p}
	}
	cols = max(1, min(cols, len(plots)))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for j := range grid {
		grid[j] = make([]*plot.Plot, cols)
		for i := range grid[j] {
			if k := j*cols + i; k < len(plots) {
				grid[j][i] = plots[k]
			}
		}
	}
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(cols)*tileW, vg.Length(rows)*tileH), vgimg.UseDPI(96))
	dc := draw.New(img)
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, t, dc)
	for j := range grid {
		for i, p := range grid[j] {
			if p != nil {
				p.Draw(canvases[j][i])
			}
		}
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// ComparePNG draws one bar chart of the system means per metric.
func ComparePNG(w io.Writer, rep ComparisonReport) error {
	var plots []*plot.Plot
	if len(rep.Systems) > 0 {
		for k, ms := range rep.Systems[0].Metrics {
			var vals plotter.Values
			var names []string
			for _, s := range rep.Systems {
				v := 0.0
				if m := s.Metrics[k].Mean; m != nil {
					v = *m
				}
				vals = append(vals, v)
				names = append(names, s.System)
			}
			p := plot.New()
			p.Title.Text = ms.Metric
			p.Y.Label.Text = "mean"
			bc, err := plotter.NewBarChart(vals, vg.Points(18))
			if err != nil {
				return err
			}
			bc.Color = plotutil.Color(0)
			p.Add(bc)
			p.NominalX(names...)
			p.X.Tick.Label.Rotation = math.Pi / 6
			p.X.Tick.Label.XAlign = draw.XRight
			lo, hi := analysis.Range(ms.Metric)
			p.Y.Min, p.Y.Max = math.Min(0, lo), hi
			plots = append(plots, p)
		}
	}
	return tilesPNG(w, plots, 4, 3.2*vg.Inch, 2.6*vg.Inch)
}

// SensitivityPNG draws, per metric, the histograms of the three variants.
func SensitivityPNG(w io.Writer, rep pipeline.SensitivityReport) error {
	var plots []*plot.Plot
	for _, s := range rep.Metrics {
		p := plot.New()
		p.Title.Text = s.Metric
		p.Title.TextStyle.Font.Size = vg.Points(10)
		p.X.Label.Text = fmt.Sprintf("AUROC %s, Cohen's d %s", optf(s.AUROC, "%.2f"), optf(s.CohensD, "%.2f"))
		p.Y.Label.Text = "samples"
		for i, vs := range s.Variants {
			edges := vs.Hist.Edges()
			h := &plotter.Histogram{Width: edges[1] - edges[0]}
			for b, c := range vs.Hist.Counts {
				h.Bins = append(h.Bins, plotter.HistogramBin{Min: edges[b], Max: edges[b+1], Weight: float64(c)})
			}
			col := color.NRGBAModel.Convert(plotutil.Color(i)).(color.NRGBA)
			h.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1)}
			col.A = 70
			h.FillColor = col
			p.Add(h)
			p.Legend.Add(vs.Variant, h)
		}
		p.Legend.Top = true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		plots = append(plots, p)
	}
	return tilesPNG(w, plots, 4, 3.4*vg.Inch, 2.8*vg.Inch)
}

// SweepPNG draws, per metric, the mean (and the AUROC of the two groups)
// against tau, one line per delta; the default variant is left out.
func SweepPNG(w io.Writer, rep analysis.SweepReport) error {
	var deltas []float64
	seen := map[float64]bool{}
	for _, pt := range rep.Points {
		if pt.Variant != kgeval.DefaultVariant && !seen[pt.Delta] {
			seen[pt.Delta] = true
			deltas = append(deltas, pt.Delta)
		}
	}
	sort.Float64s(deltas)
	curve := func(k int, title, ylabel string, lo, hi float64, get func(analysis.SweepMetric) *float64) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "tau"
		p.Y.Label.Text = ylabel
		p.Y.Min, p.Y.Max = lo, hi
		for i, d := range deltas {
			var xys plotter.XYs
			for _, pt := range rep.Points {
				if pt.Variant == kgeval.DefaultVariant || pt.Delta != d {
					continue
				}
				if v := get(pt.Metrics[k]); v != nil {
					xys = append(xys, plotter.XY{X: pt.Tau, Y: *v})
				}
			}
			if len(xys) == 0 {
				continue
			}
			sort.Slice(xys, func(a, b int) bool { return xys[a].X < xys[b].X })
			l, s, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
			s.Shape = plotutil.Shape(i)
			p.Add(l, s)
			p.Legend.Add(fmt.Sprintf("delta=%g", d), l, s)
		}
		p.Legend.Top = true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		return p, nil
	}
	var plots []*plot.Plot
	for k, name := range rep.Metrics {
		lo, hi := analysis.Range(name)
		p, err := curve(k, name, "mean", lo, hi, func(sm analysis.SweepMetric) *float64 { return sm.Mean })
		if err != nil {
			return err
		}
		plots = append(plots, p)
	}
	if rep.A != "" {
		for k, name := range rep.Metrics {
			p, err := curve(k, name+": AUROC", fmt.Sprintf("AUROC %s vs %s", rep.A, rep.B), 0, 1, func(sm analysis.SweepMetric) *float64 { return sm.AUROC })
			if err != nil {
				return err
			}
			plots = append(plots, p)
		}
	}
	return tilesPNG(w, plots, 3, 3.4*vg.Inch, 2.8*vg.Inch)
}
