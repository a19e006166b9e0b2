package dev.gpugen.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code reports/validation-junit.xml}: one test suite per host, one test case per check, so a CI
 * system shows validation as it shows tests. It is valid against both schemas CI tools read: the
 * Apache Ant JUnit schema (windyroad/JUnit-Schema JUnit.xsd: properties, system-out and system-err
 * in every suite, a timestamp without zone, package and id under testsuites) and the one Jenkins'
 * xUnit plugin validates with (jenkinsci/xunit-plugin junit-10.xsd). A failed check is a {@code
 * <failure>}, skipped and not-tested ones {@code <skipped>}, a status gpugen does not know an
 * {@code <error>}; a warning (an outlier) passes, and the suite's system-out says why.
 */
public final class JunitXml {
  private static final Pattern TIMESTAMP =
      Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}");

  /** When a report records no time: the schema requires one. */
  static final String NO_TIME = "1970-01-01T00:00:00";

  private final StringBuilder out = new StringBuilder(1 << 16);

  private JunitXml() {}

  public static String of(Fleet fleet) {
    JunitXml x = new JunitXml();
    x.document(fleet);
    return x.out.toString();
  }

  private void document(Fleet fleet) {
    line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    line("<testsuites>");
    int id = 0;
    for (Fleet.Pool pool : fleet.pools()) {
      String pkg = "gpugen.validation." + (pool.name().isEmpty() ? "no-pool" : pool.name());
      for (HostReport h : pool.hosts()) {
        suite(pkg, h, id++);
      }
    }
    line("</testsuites>");
  }

  private void suite(String pkg, HostReport h, int id) {
    int failures = 0;
    int errors = 0;
    int skipped = 0;
    for (Check c : h.checks()) {
      switch (c.status()) {
        case FAIL -> failures++;
        case OTHER -> errors++;
        case SKIPPED, NOT_TESTED -> skipped++;
        default -> {}
      }
    }
    var time = TIMESTAMP.matcher(h.validatedAt());
    line(
        "  <testsuite name=\""
            + Text.xml(pkg + "." + h.host())
            + "\" package=\""
            + Text.xml(pkg)
            + "\" id=\""
            + id
            + "\" timestamp=\""
            + (time.find() ? time.group() : NO_TIME)
            + "\" hostname=\""
            + Text.xml(h.host())
            + "\" tests=\""
            + h.checks().size()
            + "\" failures=\""
            + failures
            + "\" errors=\""
            + errors
            + "\" skipped=\""
            + skipped
            + "\" time=\"0\">");
    line("    <properties>");
    property("cluster", h.cluster());
    property("pool", h.pool());
    property("spec_sha256", h.specSha256());
    property("validated_at", h.validatedAt());
    property("report", java.nio.file.Path.of(h.file()).getFileName().toString());
    h.versions().forEach((k, v) -> property("version." + k, v));
    line("    </properties>");
    String classname = pkg + "." + h.host();
    List<String> notes = new ArrayList<>();
    for (Check c : h.checks()) {
      String open =
          "    <testcase name=\""
              + Text.xml(c.name())
              + "\" classname=\""
              + Text.xml(classname)
              + "\" time=\"0\"";
      switch (c.status()) {
        case PASS -> line(open + "/>");
        case WARN -> {
          line(open + "/>");
          notes.add(Text.xml("warning: " + c.name() + ": " + c.reason()));
        }
        case FAIL -> {
          line(open + ">");
          line(
              "      <failure type=\"fail\" message=\""
                  + Text.xml(c.reason())
                  + "\">"
                  + body(c)
                  + "</failure>");
          line("    </testcase>");
        }
        case SKIPPED, NOT_TESTED -> {
          line(open + ">");
          line("      <skipped message=\"" + Text.xml(c.reason()) + "\"/>");
          line("    </testcase>");
        }
        case OTHER -> {
          line(open + ">");
          line(
              "      <error type=\"unknown-status\" message=\""
                  + Text.xml(c.reason())
                  + "\">"
                  + body(c)
                  + "</error>");
          line("    </testcase>");
        }
      }
    }
    line("    <system-out>" + String.join("\n", notes) + "</system-out>");
    line("    <system-err></system-err>");
    line("  </testsuite>");
  }

  /** Escaped, one line each: the text is cleaned line by line, so the newline stays real. */
  private static String body(Check c) {
    return Text.xml("measured: " + c.measured()) + "\n" + Text.xml("expected: " + c.expected());
  }

  private void property(String name, String value) {
    line("      <property name=\"" + Text.xml(name) + "\" value=\"" + Text.xml(value) + "\"/>");
  }

  private void line(String s) {
    out.append(s).append('\n');
  }
}
