// The HTML reports' page shell and small helpers (report/html.hpp): escaping, anchors, the style
// sheet and the script that records load and script errors.
#include <fmt/format.h>

#include <cmath>
#include <functional>

#include "report/html.hpp"
#include "report/markup.hpp"

namespace clh::html {

std::string escape(std::string_view text) {
  return escapeMarkup(text, Markup::html);
}

std::string anchorId(std::string_view prefix, std::string_view text) {
  std::string id(prefix);
  bool replaced = false;
  for (char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-';
    id += keep ? c : '_';
    replaced |= !keep;
  }
  if (replaced) id += fmt::format("-{:08x}", std::hash<std::string_view>{}(text)&0xffffffffu);
  return id;
}

namespace {

constexpr const char* kStyle = R"css(
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
 background:var(--bg);margin:0 auto;padding:16px 24px 48px;max-width:1280px}
h1{font-size:22px;margin:4px 0 12px}h2{font-size:18px;margin:28px 0 8px;padding-bottom:4px;
 border-bottom:1px solid var(--line)}h3{font-size:15px;margin:20px 0 6px}h4{font-size:14px;margin:12px 0 4px}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
code,pre,.code td{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre.cmd{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:6px 10px;
 overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid var(--line);padding:3px 7px;
 text-align:left;vertical-align:top}th{background:var(--soft);font-weight:600}
td.num{white-space:nowrap;text-align:right}.meta{color:var(--muted)}.meta b{color:var(--fg)}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.count{border:1px solid var(--line);border-radius:8px;padding:6px 12px;min-width:90px}
.count .n{font-size:20px;font-weight:700;display:block}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;
 white-space:nowrap}
.s-pass{background:#dafbe1;color:#116329}.s-fail{background:#ffebe9;color:#a40e26}
.s-expected_failure{background:#ddf4ff;color:#0550ae}.s-unexpected_pass{background:#fff1c2;color:#7d4e00}
.s-tool_error{background:#eaeef2;color:#424a53}.s-skipped{background:#f6f8fa;color:#59636e}
.s-not_reproduced{background:#eef1ff;color:#3b4cb8}.s-review{background:#fff1c2;color:#7d4e00}
.count.s-fail .n,.count.s-unexpected_pass .n{color:#a40e26}
.finding{border-left:3px solid #cf222e;padding:2px 10px;margin:8px 0}
.finding.expected{border-left-color:#0969da}
.note,.noplot{color:var(--muted);font-style:italic}
.matrix{font-size:12.5px}.matrix th.dev{writing-mode:initial;max-width:180px}
.matrix td.check{max-width:300px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.wide{overflow-x:auto}
.matrix td{padding:2px 7px}.matrix td.check code{font-size:12px}
.cell{min-width:90px;max-width:210px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.v-conforms{background:#dafbe1}.v-deviates{background:#ffd8b5}.v-crashed{background:#a40e26;color:#fff}
.v-hung{background:#8250df;color:#fff}.v-observed{background:#ddf4ff}.v-skipped{background:#eaeef2;color:#59636e}
.cell.absent{background:repeating-linear-gradient(45deg,#fff,#fff 4px,#f3f4f6 4px,#f3f4f6 8px);color:#8c959f}
.mark{display:inline-block;font-size:10.5px;font-weight:700;border-radius:3px;padding:0 4px;margin-right:5px;
 text-transform:uppercase;background:#1f2328;color:#fff}
.m-new{outline:3px solid #fb8f44;outline-offset:-3px}.m-new .mark{background:#bc4c00}
.m-regression{outline:3px solid #cf222e;outline-offset:-3px}.m-regression .mark{background:#cf222e}
.m-fix{outline:3px solid #1a7f37;outline-offset:-3px}.m-fix .mark{background:#1a7f37}
.m-missing{outline:3px dashed #59636e;outline-offset:-3px}.m-missing .mark{background:#59636e}
.m-flaky{outline:3px dotted #9a6700;outline-offset:-3px}.m-flaky .mark{background:#9a6700}
.legend{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0;font-size:12px}
.legend span{border:1px solid var(--line);padding:1px 6px;border-radius:4px}
.plots{display:flex;flex-wrap:wrap;gap:12px}
svg.plot{border:1px solid var(--line);border-radius:6px;background:#fff}
svg.plot text{font:11px system-ui,sans-serif;fill:#1f2328}svg.plot .grid{stroke:#eaeef2}
svg.plot .axis{stroke:#59636e}svg.plot .title{font-weight:600;font-size:12px}
.src{border:1px solid var(--line);border-radius:6px;margin:6px 0;overflow-x:auto}
.srcfile{background:var(--soft);padding:3px 8px;border-bottom:1px solid var(--line);font-size:12px}
.code{margin:0;border:none}.code td{border:none;padding:0 8px;white-space:pre}
.code td.ln{color:#8c959f;text-align:right;user-select:none}.code tr.hl{background:#fff1c2}
.code tr.hl td.ln{color:#9a6700;font-weight:700}.code tr.gap td{color:#8c959f}
nav.toc{columns:3 220px;font-size:13px;margin:6px 0}nav.toc a{display:block}
.items td.pts{text-align:right;white-space:nowrap}.bar-cell{width:160px}
.hbar{height:10px;background:#0969da;border-radius:2px}
)css";

// Records script errors and the end of loading on <html>, for people and for the render test.
constexpr const char* kScript =
    "(function(){var h=document.documentElement;h.setAttribute('data-errors','');"
    "window.addEventListener('error',function(e){h.setAttribute('data-errors',"
    "h.getAttribute('data-errors')+(e.message||'error')+'\\n');});"
    "window.addEventListener('load',function(){h.setAttribute('data-ready','1');});})();";

}  // namespace

void beginPage(std::ostream& os, const std::string& title) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<title>" << escape(title) << "</title>\n<script>" << kScript << "</script>\n<style>"
     << kStyle << "</style>\n</head>\n<body>\n<h1>" << escape(title) << "</h1>\n";
}

void endPage(std::ostream& os, const std::string& tool_version) {
  os << "<footer class=\"meta\"><p>Written by clharness " << escape(tool_version)
     << ". One self-contained file: nothing is fetched.</p></footer>\n</body>\n</html>\n";
}

std::string badge(std::string_view word, std::string_view css_class) {
  return fmt::format("<span class=\"badge s-{}\">{}</span>", escape(css_class), escape(word));
}

std::string formatNs(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3g} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3g} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3g} µs", ns / 1e3);
  return fmt::format("{:.3g} ns", ns);
}

std::string seriesColor(size_t n) {
  static const char* palette[] = {"#0969da", "#cf222e", "#1a7f37", "#8250df",
                                  "#bc4c00", "#1b7c83", "#bf3989", "#6e7781"};
  return palette[n % (sizeof(palette) / sizeof(palette[0]))];
}

}  // namespace clh::html
