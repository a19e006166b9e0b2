package dev.gpugen.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page as a person sees it: {@code reports/index.html} of the committed fleet (passing,
 * failing, outlier, skipped, not-tested, hostile and pre-outlier reports) and of 500 generated
 * nodes, opened from disk in Debian's headless Chromium ({@code scripts/install-test-deps} installs
 * it) through the DevTools protocol. No console error or warning (a script or style the page's
 * Content-Security-Policy refused would be one), no dialog (a hostile report's {@code alert()}
 * would be one), the elements and counts the reports call for, the filters working, both colour
 * schemes; screenshots under {@code target/} (report-page-light.png is the one in docs/).
 */
@RealToolsTest
class ReportPageBrowserTest {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void theFleetPageLoadsCleanAndShowsEveryNodeAndCheck() throws Exception {
    Path dir = ReportFixtures.fleet(tmp.resolve("fleet"));
    ReportFolder.write(dir, Fleet.of(ReportFolder.read(dir)));
    Path target = Files.createDirectories(Golden.repo().resolve("target"));
    try (Chromium browser = new Chromium(tmp.resolve("profile"))) {
      browser.viewport(1280, 900, false);
      browser.open(dir.resolve("index.html"));
      assertEquals(List.of(), browser.problems());
      assertEquals(12, browser.eval("document.querySelectorAll('tr[data-host]').length").asInt());
      assertEquals(3, browser.eval("document.querySelectorAll('section.pool').length").asInt());
      assertEquals(3, browser.eval("document.querySelectorAll('svg.chart').length").asInt());
      assertEquals(12, browser.eval("document.querySelectorAll('rect.bar').length").asInt());
      assertEquals(2, browser.eval("document.querySelectorAll('path.mark').length").asInt());
      assertEquals(3, browser.eval("document.querySelectorAll('rect.bar.b-fail').length").asInt());
      assertEquals("3", browser.eval("document.querySelector('#t-failed b').textContent").asText());
      assertEquals(
          "2", browser.eval("document.querySelector('#t-outliers b').textContent").asText());
      // Failures first: the first row of the first pool is the failed gpu-node-3.
      assertEquals(
          "gpu-node-3",
          browser.eval("document.querySelector('section.pool tbody th').textContent").asText());
      // The hostile host name is text, not markup: one script element, the page's own.
      assertEquals(1, browser.eval("document.scripts.length").asInt());
      assertEquals(0, browser.eval("document.images.length").asInt());
      assertTrue(
          browser
              .eval("document.body.textContent")
              .asText()
              .contains("<script>alert(\"x\")</script>\\x1b[2J\\u202eevil"));
      // The reason of a check is on its cell, for hovering.
      assertEquals(
          "nccl_all_reduce: failed: measured 312.4 GB/s busbw at 8589934592 B, 0 wrong (exit 0);"
              + " expected busbw >= 350 GB/s at 8G, network Libfabric",
          browser
              .eval(
                  "document.querySelector('tr[data-host=\"gpu-node-3\"]')"
                      + ".querySelectorAll('td.c')[9].title")
              .asText());

      // The filters: only failed and outlier nodes, then a host name.
      browser.eval("document.getElementById('only-problems').click()");
      // gpu-node-3, gpu-node-8 and the hostile node failed; gpu-node-7 is an outlier.
      assertEquals(4, visibleRows(browser));
      assertEquals("4", browser.eval("document.getElementById('shown').textContent").asText());
      browser.eval(
          "var f = document.getElementById('filter'); f.value = 'node-7';"
              + " f.dispatchEvent(new Event('input'))");
      assertEquals(1, visibleRows(browser));
      browser.eval(
          "document.getElementById('only-problems').click();"
              + " var f = document.getElementById('filter'); f.value = '';"
              + " f.dispatchEvent(new Event('input'))");
      assertEquals(12, visibleRows(browser));
      assertEquals(List.of(), browser.problems());

      String light = browser.eval("getComputedStyle(document.body).backgroundColor").asText();
      Files.write(target.resolve("report-page-light.png"), browser.screenshot(1280, 1500));

      browser.viewport(1280, 900, true);
      browser.open(dir.resolve("index.html"));
      String dark = browser.eval("getComputedStyle(document.body).backgroundColor").asText();
      assertEquals("rgb(255, 255, 255)", light);
      assertEquals("rgb(14, 19, 29)", dark);
      assertNotEquals(
          browser.eval("getComputedStyle(document.querySelector('rect.bar.b-fail')).fill").asText(),
          "");
      Files.write(target.resolve("report-page-dark.png"), browser.screenshot(1280, 1500));
      assertEquals(List.of(), browser.problems());
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aPageOf500NodesLoadsCleanGroupedByPoolWithFailuresFirst() throws Exception {
    Path dir = ReportFixtures.generated(tmp.resolve("fleet"), 500);
    Fleet fleet = Fleet.of(ReportFolder.read(dir));
    ReportFolder.write(dir, fleet);
    try (Chromium browser = new Chromium(tmp.resolve("profile"))) {
      browser.viewport(1280, 900, false);
      browser.open(dir.resolve("index.html"));
      assertEquals(List.of(), browser.problems());
      assertEquals(500, browser.eval("document.querySelectorAll('tr[data-host]').length").asInt());
      assertEquals(500, browser.eval("document.querySelectorAll('rect.bar').length").asInt());
      assertEquals(4, browser.eval("document.querySelectorAll('section.pool').length").asInt());
      long problems =
          fleet.pools().stream()
              .flatMap(p -> p.hosts().stream())
              .filter(h -> !h.passed() || h.outlier())
              .count();
      assertTrue(problems > 5, "the generated fleet has failures and outliers: " + problems);
      // In every pool the rows start with its failed nodes, then its outliers.
      String order =
          browser
              .eval(
                  "Array.from(document.querySelectorAll('section.pool')).map(s =>"
                      + " Array.from(s.querySelectorAll('tbody td.res')).map(td =>"
                      + " td.textContent[0]).join('')).join(' ')")
              .asText();
      for (String pool : order.split(" ")) {
        assertTrue(pool.matches("f*o*p*"), "failed, outlier, passed order: " + pool);
      }
      browser.eval("document.getElementById('only-problems').click()");
      assertEquals(problems, visibleRows(browser));
      Files.write(
          Files.createDirectories(Golden.repo().resolve("target")).resolve("report-page-500.png"),
          browser.screenshot(1280, 1200));
      assertEquals(List.of(), browser.problems());
    }
  }

  private static int visibleRows(Chromium browser) throws Exception {
    return browser
        .eval(
            "Array.from(document.querySelectorAll('tr[data-host]')).filter(r =>"
                + " !r.hidden).length")
        .asInt();
  }
}
