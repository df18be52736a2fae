// Unit tests of the semantics matrix: cell texts, the terminal table, JSON round trips, and the
// comparison with a baseline (a regression and a fix are both listed; `detail` never counts).
#include "drivers/matrix.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "drivers/html.hpp"

using namespace clh::drivers;

namespace {

CheckResult conforming(const std::string& id) {
  CheckResult r;
  r.id = id;
  r.title = "title of " + id;
  r.verdict = Verdict::conforms;
  return r;
}
CheckResult deviating(const std::string& id, const std::string& got, const std::string& required) {
  CheckResult r = conforming(id);
  r.verdict = Verdict::deviates;
  r.got = got;
  r.required = required;
  return r;
}
CheckResult observing(const std::string& id, const std::string& value) {
  CheckResult r = conforming(id);
  r.verdict = Verdict::observed;
  r.observed = value;
  return r;
}

DeviceColumn column(std::vector<CheckResult> results) {
  return {"dev-a", "Platform: Device A", "OpenCL 3.0", "1.0", std::move(results)};
}

const Change* find(const std::vector<Change>& changes, const std::string& check) {
  for (const auto& c : changes)
    if (c.check == check) return &c;
  return nullptr;
}

}  // namespace

TEST(Matrix, CellTexts) {
  EXPECT_EQ(cellText(conforming("a")), "conforms");
  EXPECT_EQ(cellText(deviating("a", "CL_SUCCESS (0)", "CL_INVALID_VALUE (-30)")),
            "deviates: got CL_SUCCESS (0), spec requires CL_INVALID_VALUE (-30)");
  EXPECT_EQ(cellText(observing("a", "old contents")), "observed: old contents");
}

TEST(Matrix, CompareListsRegressionsFixesAndChanges) {
  auto baseline = column({conforming("stays"), conforming("breaks"),
                          deviating("gets.fixed", "x", "y"), observing("value", "old contents"),
                          deviating("other.code", "A", "C"), conforming("dropped")});
  auto current =
      column({conforming("stays"), deviating("breaks", "CL_SUCCESS (0)", "CL_INVALID_VALUE (-30)"),
              conforming("gets.fixed"), observing("value", "kernel results"),
              deviating("other.code", "B", "C"), conforming("new.check")});
  auto changes = compareWithBaseline(current, baseline);
  EXPECT_EQ(find(changes, "stays"), nullptr);
  ASSERT_NE(find(changes, "breaks"), nullptr);
  EXPECT_EQ(find(changes, "breaks")->kind, Change::Kind::regression);
  ASSERT_NE(find(changes, "gets.fixed"), nullptr);
  EXPECT_EQ(find(changes, "gets.fixed")->kind, Change::Kind::fix);
  ASSERT_NE(find(changes, "value"), nullptr);
  EXPECT_EQ(find(changes, "value")->kind, Change::Kind::changed);
  EXPECT_EQ(find(changes, "value")->before, "observed: old contents");
  EXPECT_EQ(find(changes, "value")->after, "observed: kernel results");
  ASSERT_NE(find(changes, "other.code"), nullptr);
  EXPECT_EQ(find(changes, "other.code")->kind, Change::Kind::changed);
  ASSERT_NE(find(changes, "new.check"), nullptr);
  EXPECT_EQ(find(changes, "new.check")->kind, Change::Kind::added);
  ASSERT_NE(find(changes, "dropped"), nullptr);
  EXPECT_EQ(find(changes, "dropped")->kind, Change::Kind::removed);
  EXPECT_EQ(changes.size(), 6u);
  for (const auto& c : changes) EXPECT_NE(c.toString().find(c.check), std::string::npos);
}

TEST(Matrix, DetailAndTitleNeverCount) {
  auto a = conforming("x");
  auto b = conforming("x");
  b.detail = "took 12 ms";
  b.title = "renamed";
  EXPECT_TRUE(compareWithBaseline(column({b}), column({a})).empty());
}

// PoCL dies on the same shape by one signal or another, or hangs, from run to run: which one is
// no change of the driver; another answer (a code) is.
TEST(Matrix, AProcessThatDiedIsOneOutcomeWhateverTheSignal) {
  const std::string req = "CL_INVALID_WORK_GROUP_SIZE (-54)";
  auto segv = deviating("z", "the process killed by SIGSEGV", req);
  auto fpe = deviating("z", "the process killed by SIGFPE", req);
  auto hung = deviating("z", "the process hung (killed after 60 s)", req);
  EXPECT_TRUE(compareWithBaseline(column({fpe}), column({segv})).empty());
  EXPECT_TRUE(compareWithBaseline(column({hung}), column({segv})).empty());
  auto code = deviating("z", "completion: CL_SUCCESS (0)", req);
  EXPECT_EQ(compareWithBaseline(column({code}), column({segv})).size(), 1u);
}

TEST(Matrix, JsonRoundTrip) {
  auto col = column({conforming("a"), deviating("b", "got", "req"), observing("c", "v")});
  col.results[0].detail = "some detail";
  auto back = columnFromJson(toJson(col));
  EXPECT_EQ(back.slug, col.slug);
  EXPECT_EQ(back.name, col.name);
  ASSERT_EQ(back.results.size(), 3u);
  EXPECT_EQ(back.results[0].detail, "some detail");
  EXPECT_EQ(back.results[1].got, "got");
  EXPECT_EQ(back.results[1].required, "req");
  EXPECT_EQ(back.results[2].observed, "v");
  EXPECT_TRUE(compareWithBaseline(back, col).empty());
  // A matrix reads back as its columns; a single column reads as a matrix of one.
  Matrix m = {col, col};
  m[1].slug = "dev-b";
  auto mb = matrixFromJson(toJson(m));
  ASSERT_EQ(mb.size(), 2u);
  EXPECT_EQ(mb[1].slug, "dev-b");
  EXPECT_EQ(matrixFromJson(toJson(col)).size(), 1u);
}

TEST(Matrix, JsonErrorsNameTheField) {
  auto j = toJson(column({conforming("a")}));
  j["checks"][0]["verdict"] = "maybe";
  try {
    columnFromJson(j);
    FAIL() << "a bad verdict was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("maybe"), std::string::npos);
  }
  j = toJson(column({conforming("a")}));
  j["device"].erase("slug");
  EXPECT_THROW(columnFromJson(j), std::runtime_error);
}

TEST(Matrix, TableHasEveryRowAndColumnWithinWidth) {
  auto a =
      column({conforming("read.blocking"), deviating("buffer.invalid.use_and_copy",
                                                     "CL_SUCCESS (0)", "CL_INVALID_VALUE (-30)")});
  auto b = column({conforming("read.blocking"), observing("only.b", "kernel results")});
  b.slug = "dev-b";
  const size_t width = 20;
  std::string table = renderTable({a, b}, width);
  for (const char* s : {"read.blocking", "buffer.invalid.use_and_copy", "only.b", "dev-a", "dev-b",
                        "CL_INVALID_VALUE", "observed: kernel"})
    EXPECT_NE(table.find(s), std::string::npos) << s;
  // A check a column lacks shows "-"; no line is wider than the id column plus two cells.
  std::istringstream lines(table);
  std::string line;
  const size_t id_width = std::string("buffer.invalid.use_and_copy").size() + 2;
  while (std::getline(lines, line)) {
    if (line.rfind("[", 0) == 0) continue;  // the legend
    EXPECT_LE(line.size(), id_width + 2 * (width + 3)) << line;
  }
}

// `semantics --html`: the matrix as report sections, each row marked by its change against the
// baseline; a check only the baseline has is a finding marked missing; conforming rows unchanged
// are named as conforming, and without a baseline nothing is marked.
TEST(Matrix, SectionsForTheHtmlPageCarryTheBaselineChanges) {
  auto baseline = column({conforming("stays"), conforming("breaks"),
                          deviating("gets.fixed", "x", "y"), conforming("dropped")});
  auto current = column({conforming("stays"), deviating("breaks", "CL_SUCCESS (0)", "E"),
                         conforming("gets.fixed"), conforming("new.check")});
  const std::vector<std::vector<Change>> changes = {compareWithBaseline(current, baseline)};
  const auto sections = matrixSections({current}, &changes);
  ASSERT_EQ(sections.size(), 1u);
  const clh::DriverReport& d = sections[0];
  EXPECT_EQ(d.device, "Platform: Device A");
  EXPECT_EQ(d.conforming_checks, std::vector<std::string>{"stays"});
  auto mark = [&](const std::string& id) {
    for (const auto& f : d.findings)
      if (f.check == id) return std::string(clh::toString(f.mark));
    return std::string("(not a finding)");
  };
  EXPECT_EQ(mark("breaks"), "regression");
  EXPECT_EQ(mark("gets.fixed"), "fix");
  EXPECT_EQ(mark("new.check"), "new");
  EXPECT_EQ(mark("dropped"), "missing");
  EXPECT_EQ(mark("stays"), "(not a finding)");

  const auto plain = matrixSections({current}, nullptr);
  EXPECT_EQ(plain[0].conforming_checks.size(), 3u);
  ASSERT_EQ(plain[0].findings.size(), 1u);
  EXPECT_EQ(plain[0].findings[0].mark, clh::BaselineMark::none);
  std::ostringstream page;
  writeSemanticsHtml(page, {current}, &changes);
  EXPECT_NE(page.str().find("class=\"cell v-deviates m-regression\""), std::string::npos);
  EXPECT_NE(page.str().find("class=\"cell v-conforms m-fix\""), std::string::npos);
}
