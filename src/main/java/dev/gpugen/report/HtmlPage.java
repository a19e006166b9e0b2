package dev.gpugen.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SortedMap;

/**
 * The fleet on one page, {@code reports/index.html}: a file to open from disk or attach to a
 * ticket. Self-contained: inline CSS, an inline script (filters only, no data), inline SVG; its
 * Content-Security-Policy allows exactly that style and that script (by SHA-256) and nothing from
 * anywhere, so even a value that escaped its escaping could load or run nothing. Every value from a
 * report is escaped ({@link Text#html}); the same reports give the same bytes.
 */
public final class HtmlPage {
  /** Bars per pool drawn with a host name under each; above that, names are on hover. */
  static final int LABELLED_BARS = 32;

  /** A pool's table starts open with at most this many nodes, or any failure or outlier. */
  static final int OPEN_ROWS = 64;

  private static final String STYLE =
      """
      :root{color-scheme:light dark;--bg:#ffffff;--fg:#1c2230;--muted:#5b6474;--line:#d8dde6;\
      --panel:#f4f6f9;--pass:#1a7f37;--pass-bg:#e7f5ea;--fail:#c62828;--fail-bg:#fdeaea;\
      --warn:#9a5b00;--warn-bg:#fff3dc;--skip:#7a8496;--skip-bg:#f0f2f5;--nt:#6f42c1;\
      --nt-bg:#f1ebfb;--bar:#4c7bd9;--median:#1d4ed8;--threshold:#c62828}
      @media (prefers-color-scheme:dark){:root{--bg:#0e131d;--fg:#e4e8ef;--muted:#98a2b3;\
      --line:#2a3344;--panel:#161d2a;--pass:#4cc264;--pass-bg:#12301c;--fail:#ff6b61;\
      --fail-bg:#3a1616;--warn:#e3a13b;--warn-bg:#3a2a0c;--skip:#8b95a7;--skip-bg:#1d2431;\
      --nt:#b08cf0;--nt-bg:#2a1f40;--bar:#6b96ea;--median:#8fb3ff;--threshold:#ff6b61}}
      *{box-sizing:border-box}
      body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,\
      "Segoe UI",Roboto,"DejaVu Sans",sans-serif}
      header,nav,main,footer{max-width:1240px;margin:0 auto;padding:0 20px}
      header{padding-top:18px}
      h1{font-size:22px;margin:0 0 4px}
      h2{font-size:18px;margin:0}
      .meta{color:var(--muted);margin:0 0 10px}
      code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;word-break:break-all}
      .totals{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0;margin:10px 0}
      .totals li{border:1px solid var(--line);border-radius:6px;padding:6px 12px;background:var(--panel)}
      .totals b{font-size:18px;display:block}
      .totals .t-fail b{color:var(--fail)}.totals .t-warn b{color:var(--warn)}
      .totals .t-pass b{color:var(--pass)}.totals .t-nt b{color:var(--nt)}
      .controls{display:flex;flex-wrap:wrap;gap:16px;align-items:center;margin:8px 0 12px}
      .controls input[type=search]{padding:4px 8px;border:1px solid var(--line);border-radius:4px;\
      background:var(--bg);color:var(--fg)}
      nav ul{list-style:none;padding:0;margin:0 0 8px;display:flex;flex-wrap:wrap;gap:6px 14px}
      nav a{color:var(--fg)}
      .pool{border-top:2px solid var(--line);padding:14px 0 6px;margin-top:10px}
      .pool-head{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:baseline}
      .badge{border-radius:10px;padding:0 8px;font-size:12px;border:1px solid var(--line)}
      .badge.fail{color:var(--fail);background:var(--fail-bg)}
      .badge.warn{color:var(--warn);background:var(--warn-bg)}
      .badge.pass{color:var(--pass);background:var(--pass-bg)}
      .facts{color:var(--muted);margin:6px 0}
      .versions{margin:4px 0 8px;color:var(--muted)}
      .versions .mixed{color:var(--warn);font-weight:600}
      figure{margin:6px 0 4px}
      svg.chart{width:100%;height:auto;display:block;background:var(--panel);border-radius:6px}
      .chart text{fill:var(--muted);font-size:11px;font-family:inherit}
      .chart .axis{stroke:var(--line);stroke-width:1}
      .chart .grid{stroke:var(--line);stroke-width:1;stroke-dasharray:2 3}
      .chart .threshold{stroke:var(--threshold);stroke-width:2;stroke-dasharray:6 4}
      .chart .median{stroke:var(--median);stroke-width:2}
      .chart text.l-threshold{fill:var(--threshold)}.chart text.l-median{fill:var(--median)}
      .bar.b-pass{fill:var(--bar)}.bar.b-fail{fill:var(--fail)}.bar.b-warn{fill:var(--warn)}
      .bar.b-none{fill:var(--skip)}.mark{fill:var(--warn)}
      figcaption{font-size:12px;color:var(--muted);display:flex;flex-wrap:wrap;gap:4px 14px}
      .sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;\
      vertical-align:-1px}
      .sw.b-pass{background:var(--bar)}.sw.b-fail{background:var(--fail)}\
      .sw.b-warn{background:var(--warn)}.sw.b-none{background:var(--skip)}
      .sw.l-threshold{background:var(--threshold)}.sw.l-median{background:var(--median)}
      details{margin:8px 0}
      summary{cursor:pointer;color:var(--muted)}
      .scroll{overflow-x:auto;max-height:80vh;overflow-y:auto;border:1px solid var(--line);\
      border-radius:6px;margin-top:6px}
      table.matrix{border-collapse:separate;border-spacing:0;font-size:12px;min-width:100%}
      .matrix th,.matrix td{border-bottom:1px solid var(--line);padding:3px 6px;white-space:nowrap}
      .matrix thead th{position:sticky;top:0;background:var(--panel);z-index:1;text-align:left;\
      vertical-align:bottom}
      .matrix th.check{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:500;\
      padding:6px 3px}
      .matrix tbody th{text-align:left;font-weight:500;position:sticky;left:0;background:var(--bg)}
      .matrix td.c{text-align:center;min-width:24px;font-weight:700;cursor:help}
      .s-pass{color:var(--pass);background:var(--pass-bg)}
      .s-fail{color:var(--fail);background:var(--fail-bg)}
      .s-warn{color:var(--warn);background:var(--warn-bg)}
      .s-skipped{color:var(--skip);background:var(--skip-bg)}
      .s-not-tested,.s-other{color:var(--nt);background:var(--nt-bg)}
      .s-none{color:var(--skip)}
      td.res{font-weight:600}
      .v{color:var(--muted);font-family:ui-monospace,"DejaVu Sans Mono",monospace}
      footer{color:var(--muted);font-size:12px;padding:16px 20px 28px}
      footer dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
      footer dt{font-weight:700}footer dd{margin:0}
      """;

  private static final String SCRIPT =
      """
      (function () {
        'use strict';
        var only = document.getElementById('only-problems');
        var filter = document.getElementById('filter');
        var shown = document.getElementById('shown');
        function apply() {
          var q = filter.value.trim().toLowerCase();
          var rows = document.querySelectorAll('tr[data-host]');
          var n = 0;
          for (var i = 0; i < rows.length; i++) {
            var r = rows[i];
            var hide = (only.checked && r.getAttribute('data-problem') !== '1') ||
                (q !== '' && r.getAttribute('data-host').indexOf(q) < 0);
            r.hidden = hide;
            if (!hide) { n++; }
          }
          if (only.checked || q !== '') {
            var open = document.querySelectorAll('details.nodes');
            for (var j = 0; j < open.length; j++) { open[j].open = true; }
          }
          shown.textContent = String(n);
        }
        only.addEventListener('change', apply);
        filter.addEventListener('input', apply);
        apply();
      })();
      """;

  private static final String CSP =
      "default-src 'none'; style-src "
          + hash(STYLE)
          + "; script-src "
          + hash(SCRIPT)
          + "; img-src 'none'; base-uri 'none'; form-action 'none'";

  private final StringBuilder out = new StringBuilder(1 << 16);

  private HtmlPage() {}

  /** The page for {@code fleet}. */
  public static String of(Fleet fleet) {
    HtmlPage p = new HtmlPage();
    p.page(fleet);
    return p.out.toString();
  }

  private void page(Fleet fleet) {
    String cluster = fleet.clusters().isEmpty() ? "the fleet" : String.join(", ", fleet.clusters());
    line("<!DOCTYPE html>");
    line("<html lang=\"en\">");
    line("<head>");
    line("<meta charset=\"utf-8\">");
    line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    line("<meta http-equiv=\"Content-Security-Policy\" content=\"" + CSP + "\">");
    line("<meta name=\"color-scheme\" content=\"light dark\">");
    line("<meta name=\"generator\" content=\"gpugen report\">");
    line(
        "<title>Validation of "
            + Text.html(cluster)
            + ": "
            + fleet.hosts()
            + " nodes, "
            + fleet.failed()
            + " failed</title>");
    line("<style>" + STYLE + "</style>");
    line("</head>");
    line("<body>");
    header(fleet, cluster);
    nav(fleet);
    line("<main>");
    int index = 0;
    for (Fleet.Pool pool : fleet.pools()) {
      pool(pool, index++);
    }
    line("</main>");
    footer();
    line("<script>" + SCRIPT + "</script>");
    line("</body>");
    line("</html>");
  }

  private void header(Fleet fleet, String cluster) {
    line("<header>");
    line("<h1>Validation of " + Text.html(cluster) + "</h1>");
    StringBuilder meta = new StringBuilder("<p class=\"meta\" id=\"run\">");
    List<String> times = fleet.runTimes();
    if (times.isEmpty()) {
      meta.append("run time not recorded in the reports");
    } else if (times.size() == 1) {
      meta.append("run <time>").append(Text.html(times.get(0))).append("</time>");
    } else {
      meta.append("runs from <time>")
          .append(Text.html(times.get(0)))
          .append("</time> to <time>")
          .append(Text.html(times.get(times.size() - 1)))
          .append("</time> (")
          .append(times.size())
          .append(" run times)");
    }
    meta.append(" &middot; ");
    if (fleet.specs().isEmpty()) {
      meta.append("spec fingerprint not recorded in the reports");
    } else if (fleet.specs().size() == 1) {
      meta.append("spec <code class=\"spec\">")
          .append(Text.html(fleet.specs().firstKey()))
          .append("</code>");
    } else {
      meta.append("<strong>").append(fleet.specs().size()).append(" spec versions:</strong> ");
      List<String> specs = new ArrayList<>();
      fleet
          .specs()
          .forEach(
              (sha, n) ->
                  specs.add(
                      "<code class=\"spec\">" + Text.html(sha) + "</code> (" + n + " nodes)"));
      meta.append(String.join(", ", specs));
    }
    meta.append("</p>");
    line(meta.toString());
    line("<ul class=\"totals\">");
    long passed = fleet.hosts() - fleet.failed();
    line("<li id=\"t-nodes\"><b>" + fleet.hosts() + "</b>nodes</li>");
    line("<li class=\"t-pass\" id=\"t-passed\"><b>" + passed + "</b>passed</li>");
    line("<li class=\"t-fail\" id=\"t-failed\"><b>" + fleet.failed() + "</b>failed</li>");
    line("<li class=\"t-warn\" id=\"t-outliers\"><b>" + fleet.outliers() + "</b>outliers</li>");
    line(
        "<li class=\"t-nt\" id=\"t-not-tested\"><b>"
            + fleet.notTested()
            + "</b>passed, with checks not tested</li>");
    line("<li id=\"t-pools\"><b>" + fleet.pools().size() + "</b>pools</li>");
    line("</ul>");
    line("<div class=\"controls\">");
    line(
        "<label><input type=\"checkbox\" id=\"only-problems\"> only failed and outlier"
            + " nodes</label>");
    line(
        "<label>host <input type=\"search\" id=\"filter\" placeholder=\"filter by name\""
            + " autocomplete=\"off\"></label>");
    line("<span><span id=\"shown\">" + fleet.hosts() + "</span> rows shown</span>");
    line("</div>");
    line("</header>");
  }

  private void nav(Fleet fleet) {
    line("<nav aria-label=\"pools\">");
    line("<ul>");
    int index = 0;
    for (Fleet.Pool pool : fleet.pools()) {
      StringBuilder b = new StringBuilder("<li><a href=\"#pool-").append(index++).append("\">");
      b.append(poolName(pool)).append("</a> ");
      b.append(pool.hosts().size()).append(" nodes");
      if (pool.failed() > 0) {
        b.append(", <span class=\"badge fail\">").append(pool.failed()).append(" failed</span>");
      }
      if (pool.outliers() > 0) {
        b.append(", <span class=\"badge warn\">")
            .append(pool.outliers())
            .append(" outliers</span>");
      }
      line(b.append("</li>").toString());
    }
    line("</ul>");
    line("</nav>");
  }

  private void pool(Fleet.Pool pool, int index) {
    line(
        "<section class=\"pool\" id=\"pool-"
            + index
            + "\" data-pool=\""
            + Text.html(pool.name())
            + "\">");
    StringBuilder head = new StringBuilder("<div class=\"pool-head\"><h2>");
    head.append(pool.name().isEmpty() ? "nodes without a pool" : "pool " + poolName(pool));
    head.append("</h2><span>").append(pool.hosts().size()).append(" nodes</span>");
    long passed = pool.hosts().size() - pool.failed();
    head.append("<span class=\"badge pass\">").append(passed).append(" passed</span>");
    if (pool.failed() > 0) {
      head.append("<span class=\"badge fail\">").append(pool.failed()).append(" failed</span>");
    }
    if (pool.outliers() > 0) {
      head.append("<span class=\"badge warn\">").append(pool.outliers()).append(" outliers</span>");
    }
    line(head.append("</div>").toString());
    StringBuilder facts =
        new StringBuilder("<p class=\"facts\">single-node all-reduce bus bandwidth: ");
    facts.append(
        pool.threshold().isPresent()
            ? "threshold " + Text.number(pool.threshold().getAsDouble()) + " GB/s"
            : "no threshold");
    facts.append(" &middot; ");
    facts.append(
        pool.median().isPresent()
            ? "median "
                + Text.number(pool.median().getAsDouble())
                + " GB/s of "
                + pool.measured()
                + " measured nodes"
            : "no node measured it");
    line(facts.append("</p>").toString());
    versions(pool);
    chart(pool, index);
    matrix(pool);
    line("</section>");
  }

  private void versions(Fleet.Pool pool) {
    if (pool.versions().isEmpty()) {
      line("<p class=\"versions\">versions: none reported</p>");
      return;
    }
    List<String> parts = new ArrayList<>();
    for (String key : versionKeys(pool)) {
      Map.Entry<String, SortedMap<String, Integer>> e = Map.entry(key, pool.versions().get(key));
      boolean mixed = e.getValue().size() > 1;
      List<String> values = new ArrayList<>();
      e.getValue()
          .forEach(
              (v, n) ->
                  values.add("<code>" + Text.html(v) + "</code>" + (mixed ? " &times;" + n : "")));
      parts.add(
          (mixed ? "<span class=\"mixed\">" : "<span>")
              + Text.html(label(e.getKey()))
              + "</span> "
              + String.join(", ", values));
    }
    line("<p class=\"versions\">versions: " + String.join(" &middot; ", parts) + "</p>");
  }

  // --- the bar chart ---------------------------------------------------------------------------

  private void chart(Fleet.Pool pool, int index) {
    List<HostReport> hosts = pool.hosts();
    int n = hosts.size();
    boolean labelled = n <= LABELLED_BARS;
    double width = 960;
    double left = 56;
    double right = 132;
    double top = 18;
    double plotHeight = 190;
    double bottom = labelled ? 96 : 22;
    double height = top + plotHeight + bottom;
    double plotWidth = width - left - right;
    double max = 0;
    for (HostReport h : hosts) {
      max = Math.max(max, h.busBandwidth().orElse(0));
    }
    max = Math.max(max, pool.threshold().orElse(0));
    max = Math.max(max, pool.median().orElse(0));
    double step = niceStep(max <= 0 ? 1 : max * 1.08 / 5);
    double yMax = Math.max(step, Math.ceil(max * 1.08 / step) * step);
    String id = "chart-" + index;
    line(
        "<figure><svg class=\"chart\" id=\""
            + id
            + "\" viewBox=\"0 0 "
            + fmt(width)
            + " "
            + fmt(height)
            + "\" role=\"img\" aria-labelledby=\""
            + id
            + "-t\" xmlns=\"http://www.w3.org/2000/svg\">");
    line(
        "<title id=\""
            + id
            + "-t\">single-node all-reduce bus bandwidth per node of "
            + (pool.name().isEmpty() ? "the nodes without a pool" : "pool " + poolName(pool))
            + "</title>");
    for (double y = 0; y <= yMax + step / 2; y += step) {
      double py = top + plotHeight - y / yMax * plotHeight;
      line(
          "<line class=\"grid\" x1=\""
              + fmt(left)
              + "\" x2=\""
              + fmt(left + plotWidth)
              + "\" y1=\""
              + fmt(py)
              + "\" y2=\""
              + fmt(py)
              + "\"/><text x=\""
              + fmt(left - 6)
              + "\" y=\""
              + fmt(py + 4)
              + "\" text-anchor=\"end\">"
              + Text.number(y)
              + "</text>");
    }
    line(
        "<text x=\"12\" y=\""
            + fmt(top + plotHeight / 2)
            + "\" transform=\"rotate(-90 12 "
            + fmt(top + plotHeight / 2)
            + ")\" text-anchor=\"middle\">GB/s</text>");
    double slot = plotWidth / Math.max(n, 1);
    double barWidth = slot >= 4 ? Math.min(slot * 0.78, 36) : slot;
    for (int i = 0; i < n; i++) {
      HostReport h = hosts.get(i);
      double x = left + i * slot + (slot - barWidth) / 2;
      OptionalDouble bw = h.busBandwidth();
      String cls =
          !h.passed() ? "b-fail" : h.outlier() ? "b-warn" : bw.isPresent() ? "b-pass" : "b-none";
      double value = bw.orElse(0);
      double barHeight = bw.isPresent() ? Math.max(1, value / yMax * plotHeight) : 3;
      double y = top + plotHeight - barHeight;
      line(
          "<rect class=\"bar "
              + cls
              + "\" data-host=\""
              + Text.html(h.host())
              + "\" x=\""
              + fmt(x)
              + "\" y=\""
              + fmt(y)
              + "\" width=\""
              + fmt(barWidth)
              + "\" height=\""
              + fmt(barHeight)
              + "\"><title>"
              + Text.html(barTitle(h))
              + "</title></rect>");
      if (h.outlier()) {
        double cx = x + barWidth / 2;
        double w = Math.max(3, Math.min(7, barWidth / 2 + 2));
        line(
            "<path class=\"mark\" d=\"M"
                + fmt(cx - w)
                + " "
                + fmt(y - 3 - w * 1.4)
                + "L"
                + fmt(cx + w)
                + " "
                + fmt(y - 3 - w * 1.4)
                + "L"
                + fmt(cx)
                + " "
                + fmt(y - 3)
                + "Z\"><title>"
                + Text.html(h.host() + ": outlier")
                + "</title></path>");
      }
      if (labelled) {
        double lx = x + barWidth / 2;
        double ly = top + plotHeight + 8;
        line(
            "<text class=\"host\" x=\""
                + fmt(lx)
                + "\" y=\""
                + fmt(ly)
                + "\" transform=\"rotate(55 "
                + fmt(lx)
                + " "
                + fmt(ly)
                + ")\">"
                + Text.html(shorten(h.host(), 18))
                + "</text>");
      }
    }
    line(
        "<line class=\"axis\" x1=\""
            + fmt(left)
            + "\" x2=\""
            + fmt(left + plotWidth)
            + "\" y1=\""
            + fmt(top + plotHeight)
            + "\" y2=\""
            + fmt(top + plotHeight)
            + "\"/>");
    // The higher line's label sits above it and the lower one's below, so close lines do not
    // print their labels over each other.
    boolean thresholdHigher = pool.threshold().orElse(0) > pool.median().orElse(0);
    if (pool.threshold().isPresent()) {
      level(
          "threshold",
          "threshold " + Text.number(pool.threshold().getAsDouble()),
          pool.threshold().getAsDouble(),
          thresholdHigher || pool.median().isEmpty(),
          yMax,
          left,
          plotWidth,
          top,
          plotHeight);
    }
    if (pool.median().isPresent()) {
      level(
          "median",
          "median " + Text.number(pool.median().getAsDouble()),
          pool.median().getAsDouble(),
          !thresholdHigher,
          yMax,
          left,
          plotWidth,
          top,
          plotHeight);
    }
    line("</svg>");
    line(
        "<figcaption><span><i class=\"sw b-pass\"></i>passed</span><span><i class=\"sw"
            + " b-fail\"></i>failed</span><span><i class=\"sw b-warn\"></i>outlier (&#9660;)"
            + "</span><span><i class=\"sw b-none\"></i>not measured</span><span><i class=\"sw"
            + " l-threshold\"></i>threshold</span><span><i class=\"sw l-median\"></i>pool"
            + " median</span>"
            + (labelled ? "" : "<span>hover a bar for its node</span>")
            + "</figcaption></figure>");
  }

  private void level(
      String cls,
      String text,
      double value,
      boolean above,
      double yMax,
      double left,
      double plotWidth,
      double top,
      double plotHeight) {
    double y = top + plotHeight - value / yMax * plotHeight;
    double ty = above ? y - 4 : y + 13;
    line(
        "<line class=\""
            + cls
            + "\" x1=\""
            + fmt(left)
            + "\" x2=\""
            + fmt(left + plotWidth)
            + "\" y1=\""
            + fmt(y)
            + "\" y2=\""
            + fmt(y)
            + "\"/><text class=\"l-"
            + cls
            + "\" x=\""
            + fmt(left + plotWidth + 6)
            + "\" y=\""
            + fmt(ty)
            + "\">"
            + text
            + " GB/s</text>");
  }

  private static String barTitle(HostReport h) {
    StringBuilder b = new StringBuilder(h.host()).append(": ");
    b.append(
        h.busBandwidth().isPresent()
            ? Text.number(h.busBandwidth().getAsDouble()) + " GB/s busbw"
            : "no bus bandwidth measured");
    if (!h.passed()) {
      List<String> failed = new ArrayList<>();
      h.checks().stream().filter(c -> c.status() == Status.FAIL).forEach(c -> failed.add(c.name()));
      b.append(", failed: ")
          .append(failed.isEmpty() ? "(no failed check listed)" : String.join(", ", failed));
    } else {
      b.append(", passed");
    }
    h.check(Checks.OUTLIER)
        .filter(c -> c.status() == Status.WARN || c.status() == Status.FAIL)
        .ifPresent(c -> b.append("; outlier: ").append(c.measured()));
    return b.toString();
  }

  // --- the host x check table --------------------------------------------------------------------

  private void matrix(Fleet.Pool pool) {
    boolean open = pool.failed() > 0 || pool.outliers() > 0 || pool.hosts().size() <= OPEN_ROWS;
    line(
        "<details class=\"nodes\""
            + (open ? " open" : "")
            + "><summary>"
            + pool.hosts().size()
            + " nodes &times; "
            + pool.checks().size()
            + " checks (hover a cell for the reason)</summary>");
    line("<div class=\"scroll\"><table class=\"matrix\">");
    List<String> versionKeys = versionKeys(pool);
    StringBuilder head =
        new StringBuilder("<thead><tr><th scope=\"col\">host</th><th scope=\"col\">result</th>");
    for (String c : pool.checks()) {
      head.append("<th scope=\"col\" class=\"check\">").append(Text.html(c)).append("</th>");
    }
    for (String v : versionKeys) {
      head.append("<th scope=\"col\">").append(Text.html(label(v))).append("</th>");
    }
    line(head.append("</tr></thead>").toString());
    line("<tbody>");
    for (HostReport h : pool.hosts()) {
      boolean problem = !h.passed() || h.outlier();
      StringBuilder row =
          new StringBuilder("<tr data-host=\"")
              .append(Text.html(h.host().toLowerCase(Locale.ROOT)))
              .append("\" data-problem=\"")
              .append(problem ? "1" : "0")
              .append("\"><th scope=\"row\">")
              .append(Text.html(h.host()))
              .append("</th>");
      String result = !h.passed() ? "failed" : h.outlier() ? "outlier" : "passed";
      String resultCls = !h.passed() ? "fail" : h.outlier() ? "warn" : "pass";
      row.append("<td class=\"res s-")
          .append(resultCls)
          .append("\">")
          .append(result)
          .append("</td>");
      for (String name : pool.checks()) {
        var check = h.check(name);
        if (check.isEmpty()) {
          row.append("<td class=\"c s-none\" title=\"")
              .append(Text.html(name + ": not in this node's report"))
              .append("\">&middot;</td>");
          continue;
        }
        Check c = check.get();
        row.append("<td class=\"c s-")
            .append(c.status().css())
            .append("\" title=\"")
            .append(Text.html(name + ": " + c.reason()))
            .append("\">")
            .append(symbol(c.status()))
            .append("</td>");
      }
      for (String v : versionKeys) {
        row.append("<td class=\"v\">")
            .append(Text.html(h.versions().getOrDefault(v, "")))
            .append("</td>");
      }
      line(row.append("</tr>").toString());
    }
    line("</tbody></table></div></details>");
  }

  private static String symbol(Status s) {
    return switch (s) {
      case PASS -> "&#10003;";
      case FAIL -> "&#10007;";
      case WARN -> "!";
      case SKIPPED -> "&ndash;";
      case NOT_TESTED, OTHER -> "?";
    };
  }

  private void footer() {
    line("<footer>");
    line("<dl>");
    line("<dt class=\"s-pass\">&#10003;</dt><dd>passed</dd>");
    line("<dt class=\"s-fail\">&#10007;</dt><dd>failed: the node failed play 05</dd>");
    line(
        "<dt class=\"s-warn\">!</dt><dd>warning: more than the pool's validation.outlierPercent"
            + " below its median (bus bandwidth or gpu-burn throughput)</dd>");
    line("<dt class=\"s-skipped\">&ndash;</dt><dd>skipped (by tag, or not on this node)</dd>");
    line(
        "<dt class=\"s-not-tested\">?</dt><dd>not tested, or a status this gpugen does not know</dd>");
    line("<dt class=\"s-none\">&middot;</dt><dd>not in this node's report</dd>");
    line("</dl>");
    line(
        "<p>Written by <code>gpugen report</code> from play 05's reports"
            + " (<code>reports/&lt;host&gt;.json</code>); the same reports as JUnit XML:"
            + " <code>validation-junit.xml</code>.</p>");
    line("</footer>");
  }

  // --- helpers ----------------------------------------------------------------------------------

  private static String poolName(Fleet.Pool pool) {
    return pool.name().isEmpty() ? "(no pool)" : Text.html(pool.name());
  }

  /** The stack from the bottom up (driver first), then any other field by name. */
  private static final List<String> VERSION_ORDER =
      List.of("driver", "cuda_toolkit", "container_toolkit", "kernel");

  private static List<String> versionKeys(Fleet.Pool pool) {
    List<String> keys = new ArrayList<>(pool.versions().keySet());
    keys.sort(
        java.util.Comparator.<String>comparingInt(
                k -> VERSION_ORDER.contains(k) ? VERSION_ORDER.indexOf(k) : VERSION_ORDER.size())
            .thenComparing(java.util.Comparator.naturalOrder()));
    return keys;
  }

  /** How a version field is shown. */
  private static String label(String key) {
    return switch (key) {
      case "cuda_toolkit" -> "CUDA toolkit";
      case "container_toolkit" -> "container toolkit";
      default -> key.replace('_', ' ');
    };
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "\u2026";
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  static double niceStep(double raw) {
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw) {
        return m * p;
      }
    }
    return 10 * p;
  }

  private static String fmt(double d) {
    return Text.number(d);
  }

  private void line(String s) {
    out.append(s).append('\n');
  }

  /** A CSP source for an inline element whose content is exactly {@code text}. */
  private static String hash(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return "'sha256-" + Base64.getEncoder().encodeToString(d) + "'";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
