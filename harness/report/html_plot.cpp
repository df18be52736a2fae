// SVG plots of the HTML reports, drawn here (report/html.hpp): a scatter plot with linear or log
// axes, ticks, labels and a legend, and a bar chart for histograms. No script, no library.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "report/html.hpp"

namespace clh::html {

namespace {

constexpr double kWidth = 540, kPlotHeight = 270;
constexpr double kLeft = 66, kRight = 18, kTop = 30, kBottom = 48;

// "1.5k", "20M", "0.25": a tick label.
std::string tickLabel(double v) {
  const double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:g}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:g}k", v / 1e3);
  if (a >= 1) return fmt::format("{:.4g}", v);  // 1000, not 1e+03
  return fmt::format("{:.3g}", v);
}

// One axis: the value range and how a value maps to [0, 1].
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double frac(double v) const {
    if (log) return (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return (v - lo) / (hi - lo);
  }
  std::vector<double> ticks() const {
    std::vector<double> t;
    if (log) {
      const int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
      const int b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
      const bool fine = b - a <= 2;  // within two decades: 1, 2, 5 of each
      for (int e = a; e <= b; ++e)
        for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
          const double v = m * std::pow(10.0, e);
          if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
        }
      return t;
    }
    const double raw = (hi - lo) / 5;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
      if (raw <= m * mag) {
        step = m * mag;
        break;
      }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
      t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
    return t;
  }
};

// The range of `values` as an axis: a log axis padded to whole decades' neighbourhood, a linear
// one from 0 when the values are positive.
Axis makeAxis(const std::vector<double>& values, bool log) {
  Axis a;
  a.log = log;
  double lo = *std::min_element(values.begin(), values.end());
  double hi = *std::max_element(values.begin(), values.end());
  if (log) {
    if (hi / lo < 1.5) lo /= 2, hi *= 2;
    a.lo = std::pow(10.0, std::floor(std::log10(lo) * 4) / 4);  // quarter decades
    a.hi = std::pow(10.0, std::ceil(std::log10(hi) * 4) / 4);
    if (a.hi <= a.lo) a.hi = a.lo * 10;
    return a;
  }
  if (lo > 0) lo = 0;
  if (hi <= lo) hi = lo + 1;
  a.lo = lo;
  a.hi = hi * 1.05;
  return a;
}

// A legend's name, cut to what fits beside the plot (the points' tooltips keep it whole).
std::string legendName(const std::string& name) {
  constexpr size_t kMax = 80;
  if (name.size() <= kMax) return name;
  size_t cut = kMax - 3;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return name.substr(0, cut) + "...";
}

bool drawable(double x, double y, bool log_x, bool log_y) {
  return std::isfinite(x) && std::isfinite(y) && (!log_x || x > 0) && (!log_y || y > 0);
}

// Whether the y axis is a log one: as the plot says, or (automatic) when its positive values span
// more than a factor of 50.
bool logY(const Plot& plot) {
  std::vector<double> ys;
  for (const auto& s : plot.series)
    for (const auto& [x, y] : s.points)
      if (drawable(x, y, plot.log_x, false) && y > 0) ys.push_back(y);
  bool log_y = plot.log_y == Plot::LogY::always;
  if (plot.log_y == Plot::LogY::automatic && !ys.empty())
    log_y = *std::max_element(ys.begin(), ys.end()) > 50 * *std::min_element(ys.begin(), ys.end());
  return log_y;
}

// The plot's area: its two axes and where a value lands on the page.
struct Frame {
  Axis ax, ay;
  static constexpr double pw = kWidth - kLeft - kRight, ph = kPlotHeight;
  double px(double x) const { return kLeft + ax.frac(x) * pw; }
  double py(double y) const { return kTop + ph - ay.frac(y) * ph; }
};

// The grid, the ticks and their labels, the axes and the axis labels.
std::string axesSvg(const Plot& plot, const Frame& f, bool log_y) {
  const double pw = Frame::pw, ph = Frame::ph;
  std::string out;
  for (double t : f.ax.ticks()) {
    const double x = f.px(t);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        x, kTop, kTop + ph, kTop + ph + 14, escape(tickLabel(t)));
  }
  for (double t : f.ay.ticks()) {
    const double y = f.py(t);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, y, kLeft + pw, kLeft - 5, y + 4, escape(tickLabel(t)));
  }
  out += fmt::format(
      "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>"
      "<line class=\"axis\" x1=\"{0}\" y1=\"{3}\" x2=\"{0}\" y2=\"{1}\"/>\n",
      kLeft, kTop + ph, kLeft + pw, kTop);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n",
                     kLeft + pw / 2, kTop + ph + 32, escape(plot.x_label),
                     plot.log_x ? " (log scale)" : "");
  out += fmt::format(
      "<text x=\"14\" y=\"{0:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {0:.1f})\">"
      "{1}{2}</text>\n",
      kTop + ph / 2, escape(plot.y_label), log_y ? " (log scale)" : "");
  return out;
}

// Series `i`: its points, each with a tooltip, and its line of the legend.
std::string seriesSvg(const Plot& plot, size_t i, const Frame& f, bool log_y) {
  const PlotSeries& s = plot.series[i];
  const std::string color = escape(s.color.empty() ? seriesColor(i) : s.color);
  const std::string fill = s.hollow ? "#fff" : color;
  std::string out = fmt::format("<g class=\"series\" data-name=\"{}\">\n", escape(s.name));
  for (const auto& [x, y] : s.points) {
    if (!drawable(x, y, plot.log_x, log_y)) continue;
    out += fmt::format(
        "<circle class=\"pt\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3.5\" fill=\"{}\" stroke=\"{}\" "
        "stroke-width=\"1.5\" data-x=\"{:g}\" data-y=\"{:g}\"><title>{}: {}, "
        "{}</title></circle>\n",
        f.px(x), f.py(y), fill, color, x, y, escape(s.name), escape(tickLabel(x)),
        escape(tickLabel(y)));
  }
  out += "</g>\n";
  const double lx = kLeft;
  const double ly = kTop + Frame::ph + 50 + 16 * static_cast<double>(i);
  out += fmt::format(
      "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" stroke=\"{}\" "
      "stroke-width=\"1.5\"/>"
      "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
      lx + 4, ly - 4, fill, color, lx + 12, ly, escape(legendName(s.name)));
  return out;
}

}  // namespace

std::string renderPlot(const Plot& plot) {
  const bool log_y = logY(plot);
  std::vector<double> xs, ys;
  for (const auto& s : plot.series)
    for (const auto& [x, y] : s.points)
      if (drawable(x, y, plot.log_x, log_y)) xs.push_back(x), ys.push_back(y);
  if (xs.empty())
    return "<p class=\"noplot\">" +
           escape(plot.empty_note.empty() ? "nothing to plot" : plot.empty_note) + "</p>\n";

  const Frame f{makeAxis(xs, plot.log_x), makeAxis(ys, log_y)};
  const double legendRows = static_cast<double>(plot.series.size());
  const double height = kTop + kPlotHeight + kBottom + 16 * legendRows;
  std::string out = fmt::format(
      "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">\n"
      "<text class=\"title\" x=\"{3}\" y=\"18\">{2}</text>\n",
      kWidth, height, escape(plot.title), kLeft);
  out += axesSvg(plot, f, log_y);
  for (size_t i = 0; i < plot.series.size(); ++i) out += seriesSvg(plot, i, f, log_y);
  out += "</svg>\n";
  return out;
}

std::string renderBars(const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<Bar>& bars) {
  if (bars.empty()) return "<p class=\"noplot\">nothing to plot</p>\n";
  double top = 1;
  for (const auto& b : bars) top = std::max(top, b.value);
  const double pw = kWidth - kLeft - kRight, ph = kPlotHeight * 0.7;
  const double height = kTop + ph + kBottom;
  const double slot = pw / static_cast<double>(bars.size());
  std::string out = fmt::format(
      "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">\n"
      "<text class=\"title\" x=\"{3}\" y=\"18\">{2}</text>\n",
      kWidth, height, escape(title), kLeft);
  const int step = std::max(1, static_cast<int>(std::ceil(top / 5)));
  for (int t = 0; t <= top; t += step) {
    const double y = kTop + ph - t / top * ph;
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, y, kLeft + pw, kLeft - 5, y + 4, t);
  }
  for (size_t i = 0; i < bars.size(); ++i) {
    const double h = bars[i].value / top * ph, x = kLeft + slot * static_cast<double>(i);
    out += fmt::format(
        "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill=\"#0969da\" data-value=\"{:g}\"><title>{}: {:g}</title></rect>"
        "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        x + slot * 0.1, kTop + ph - h, slot * 0.8, h, bars[i].value, escape(bars[i].label),
        bars[i].value, x + slot / 2, kTop + ph + 14, escape(bars[i].label));
  }
  out += fmt::format(
      "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>"
      "<text x=\"{3:.1f}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>"
      "<text x=\"14\" y=\"{6:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {6:.1f})\">"
      "{7}</text>\n</svg>\n",
      kLeft, kTop + ph, kLeft + pw, kLeft + pw / 2, kTop + ph + 32, escape(x_label), kTop + ph / 2,
      escape(y_label));
  return out;
}

}  // namespace clh::html
