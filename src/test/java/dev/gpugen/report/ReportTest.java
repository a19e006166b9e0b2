package dev.gpugen.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.cli.ExitCodes;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * {@code gpugen report} on the committed fleet (passing, failing, outlier, skipped, not-tested,
 * hostile and pre-outlier reports) and on a generated 500-node fleet: what the page and the JUnit
 * file say, that report text never becomes markup, that the JUnit file is valid for the schemas CI
 * tools read, that the same reports give the same bytes, and how bad folders and reports are
 * refused.
 */
class ReportTest {
  @TempDir Path tmp;

  @Test
  void poolsAndNodesComeProblemsFirstWithThresholdAndMedian() throws Exception {
    Fleet fleet = Fleet.of(ReportFolder.read(ReportFixtures.fleet(tmp.resolve("r"))));
    assertEquals(
        List.of("h100", "l4-infer", ""), fleet.pools().stream().map(Fleet.Pool::name).toList());
    Fleet.Pool h100 = fleet.pools().get(0);
    assertEquals(
        List.of(
            "gpu-node-3",
            "gpu-node-8",
            "gpu-node-7",
            "gpu-node-1",
            "gpu-node-2",
            "gpu-node-4",
            "gpu-node-5",
            "gpu-node-6"),
        h100.hosts().stream().map(HostReport::host).toList());
    assertEquals(350.0, h100.threshold().getAsDouble());
    // 7 of 8 measured (gpu-node-5 skipped its burn-in): 312.4, 351, and five at 391.35.
    assertEquals(7, h100.measured());
    assertEquals(391.35, h100.median().getAsDouble(), 1e-9);
    assertEquals(2, h100.failed());
    assertEquals(2, h100.outliers());
    assertEquals(Checks.ORDER, h100.checks());
    assertEquals(12, fleet.hosts());
    assertEquals(3, fleet.failed());
    assertEquals(List.of("2025-06-02T14:07:31Z"), fleet.runTimes());
    assertEquals(1, fleet.specs().size());
    // The report from before pools and versions: its own group, its threshold from "expected".
    Fleet.Pool legacy = fleet.pools().get(2);
    assertEquals(296.0, legacy.threshold().getAsDouble());
    assertTrue(legacy.versions().isEmpty());
    assertEquals(Fleet.NATURAL.compare("gpu-2", "gpu-10") < 0, true);
  }

  /**
   * A report's figures are hostile input: two nodes at 1e308 GB/s (near Double.MAX_VALUE) give a
   * median of 1e308, not Infinity, and the page and its chart hold no Infinity or NaN.
   */
  @Test
  void figuresNearTheLargestDoubleKeepAFiniteMedianAndChart() throws Exception {
    Path dir = ReportFixtures.generated(tmp.resolve("r"), 5);
    for (String host : List.of("gpu-000", "gpu-004")) {
      Path f = dir.resolve(host + ".json");
      String text =
          Files.readString(f).replaceAll("\"busbw_gbps\": [0-9.]+", "\"busbw_gbps\": 1e308");
      assertTrue(text.contains("1e308"), text);
      Files.writeString(f, text);
    }
    Fleet fleet = Fleet.of(ReportFolder.read(dir));
    Fleet.Pool a =
        fleet.pools().stream().filter(p -> p.name().equals("pool-a")).findFirst().orElseThrow();
    assertEquals(1e308, a.median().getAsDouble());
    Cli cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(0, cli.exit(), cli.toString());
    String page = Files.readString(dir.resolve("index.html"));
    assertFalse(page.contains("Infinity"), page);
    assertFalse(page.contains("NaN"), page);
  }

  @Test
  void thePageShowsEveryNodeCheckAndVersion() throws Exception {
    Path dir = ReportFixtures.fleet(tmp.resolve("r"));
    Cli cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(0, cli.exit(), cli.toString());
    assertTrue(
        cli.out().startsWith("report: 12 nodes in 3 pools: 9 passed, 3 failed, 2 outliers\n"),
        cli.out());
    assertTrue(cli.out().contains("  outlier gpu-node-7 (pool h100)\n"), cli.out());
    String page = Files.readString(dir.resolve("index.html"));
    assertEquals(12, count(page, "<tr data-host=\""));
    assertEquals(12, count(page, "<rect class=\"bar "));
    assertEquals(2, count(page, "<path class=\"mark\""));
    assertEquals(3, count(page, "<section class=\"pool\""));
    assertTrue(page.contains("<li class=\"t-fail\" id=\"t-failed\"><b>3</b>failed</li>"), page);
    assertTrue(page.contains("threshold 350 GB/s"), page);
    assertTrue(page.contains("median 391.35 GB/s of 7 measured nodes"), page);
    // The reason on hover, and the mixed driver versions of pool h100.
    assertTrue(
        page.contains(
            "title=\"gpu_burn: failed: measured 7 GPUs OK (exit 1); expected 8 GPUs OK after 120"
                + " s\""),
        page);
    assertTrue(
        page.contains(
            "<span class=\"mixed\">driver</span> <code>570.172.08</code> &times;1,"
                + " <code>580.95.05</code> &times;7"),
        page);
    assertTrue(page.contains("run <time>2025-06-02T14:07:31Z</time>"), page);
    assertTrue(
        page.contains(
            "spec <code class=\"spec\">3f1c2a9e8b7d6c5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877</code>"),
        page);
    // No network: the policy allows the page's own style and script and nothing else.
    assertTrue(page.contains("content=\"default-src 'none'; style-src 'sha256-"), page);
    assertFalse(Pattern.compile("(?i)(src|href)=\"(https?:|//)").matcher(page).find(), page);
  }

  @Test
  void reportTextNeverBecomesMarkup() throws Exception {
    Path dir = ReportFixtures.fleet(tmp.resolve("r"));
    ReportFolder.write(dir, Fleet.of(ReportFolder.read(dir)));
    String page = Files.readString(dir.resolve("index.html"));
    assertEquals(List.of(), markupFromReports(page), "report values must arrive escaped");
    assertTrue(
        page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x1b[2J\\u202eevil</th>"),
        page);
    assertTrue(page.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp;"), page);
    assertTrue(page.contains("6.8.0-1029-aws&#39;&quot;&gt;&lt;b&gt;"), page);
    // A lone surrogate cannot be written as UTF-8: it is shown as its escape.
    assertTrue(page.contains("\\ud800"), page);
    assertFalse(page.contains("\u001b") || page.contains("\u202e"), "raw control or bidi");
    // The detector finds markup that did get through.
    String planted =
        page.replace(
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x1b[2J\\u202eevil</th>",
            "<script>alert(\"x\")</script><img src=x onerror=alert(1)></th>");
    assertEquals(
        List.of("<img src=x onerror=alert(1)>", "2 script elements"), markupFromReports(planted));
  }

  @Test
  void theSameReportsGiveTheSameBytesInAnyFolder() throws Exception {
    Path a = ReportFixtures.fleet(tmp.resolve("a"));
    ReportFolder.write(a, Fleet.of(ReportFolder.read(a)));
    byte[] page = Files.readAllBytes(a.resolve("index.html"));
    byte[] junit = Files.readAllBytes(a.resolve("validation-junit.xml"));
    // Again, and from a folder whose files were created in the opposite order.
    ReportFolder.write(a, Fleet.of(ReportFolder.read(a)));
    assertArrayEquals(page, Files.readAllBytes(a.resolve("index.html")));
    Path b = Files.createDirectories(tmp.resolve("b"));
    List<Path> files;
    try (var s = Files.list(a)) {
      files = s.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    for (int i = files.size() - 1; i >= 0; i--) {
      Files.copy(files.get(i), b.resolve(files.get(i).getFileName()));
    }
    ReportFolder.write(b, Fleet.of(ReportFolder.read(b)));
    assertArrayEquals(page, Files.readAllBytes(b.resolve("index.html")));
    assertArrayEquals(junit, Files.readAllBytes(b.resolve("validation-junit.xml")));
  }

  @Test
  void theJunitFileIsValidForTheAntAndJenkinsSchemas() throws Exception {
    Path dir = ReportFixtures.fleet(tmp.resolve("r"));
    ReportFolder.write(dir, Fleet.of(ReportFolder.read(dir)));
    String xml = Files.readString(dir.resolve("validation-junit.xml"));
    validate("ant-junit.xsd", xml);
    validate("jenkins-xunit-junit-10.xsd", xml);

    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new InputSource(new StringReader(xml)));
    NodeList suites = doc.getElementsByTagName("testsuite");
    assertEquals(12, suites.getLength());
    // One test case per host and check: 13 checks on the full reports, 3 on the legacy one, 14 on
    // the hostile one (its unknown check).
    assertEquals(8 * 13 + 2 * 13 + 14 + 3, doc.getElementsByTagName("testcase").getLength());
    Element first = (Element) suites.item(0);
    assertEquals("gpu-node-3", first.getAttribute("hostname"));
    assertEquals("2", first.getAttribute("failures"));
    assertEquals("2025-06-02T14:07:31", first.getAttribute("timestamp"));
    Element hostile =
        suite(
            suites, "gpugen.validation.l4-infer.<script>alert(\"x\")</script>\\x1b[2J\\u202eevil");
    assertEquals("1", hostile.getAttribute("errors"), "the unknown status is an error");
    assertEquals("1", hostile.getAttribute("failures"));
    // The outlier that passed: a passing test case, the warning in the suite's system-out.
    Element outlier = suite(suites, "gpugen.validation.h100.gpu-node-7");
    assertEquals("0", outlier.getAttribute("failures"));
    assertTrue(
        outlier
            .getElementsByTagName("system-out")
            .item(0)
            .getTextContent()
            .startsWith("warning: outlier: warning: measured busbw 351.0 GB/s"),
        outlier.getElementsByTagName("system-out").item(0)::getTextContent);
    Element legacy = suite(suites, "gpugen.validation.no-pool.legacy-node");
    assertEquals(JunitXml.NO_TIME, legacy.getAttribute("timestamp"));

    // The schemas catch what CI tools would reject: a time zone in the timestamp (Ant), a suite
    // without its counts (Jenkins).
    assertThrows(
        SAXException.class,
        () ->
            validate(
                "ant-junit.xsd",
                xml.replace(
                    "timestamp=\"2025-06-02T14:07:31\"", "timestamp=\"2025-06-02T14:07:31Z\"")));
    assertThrows(
        SAXException.class,
        () -> validate("jenkins-xunit-junit-10.xsd", xml.replaceFirst(" failures=\"[0-9]+\"", "")));
  }

  @Test
  void aFleetOf500NodesIsOnePageAndOneValidJunitFile() throws Exception {
    Path dir = ReportFixtures.generated(tmp.resolve("r"), 500);
    Cli cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(0, cli.exit(), cli.toString());
    String page = Files.readString(dir.resolve("index.html"));
    assertEquals(500, count(page, "<tr data-host=\""));
    assertEquals(500, count(page, "<rect class=\"bar "));
    assertEquals(4, count(page, "<section class=\"pool\""));
    // 500 nodes: no host names under the bars (on hover instead), and the tables of pools with
    // problems open.
    assertEquals(0, count(page, "<text class=\"host\""));
    validate("ant-junit.xsd", Files.readString(dir.resolve("validation-junit.xml")));
    validate("jenkins-xunit-junit-10.xsd", Files.readString(dir.resolve("validation-junit.xml")));
  }

  @Test
  void aReportThatIsNotPlay05sIsRefusedWithItsPosition() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("r"));
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\n  \"host\": \"a\",\n  \"passed\": tru\n}\n");
    Cli cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(1, cli.exit(), cli.toString());
    assertTrue(cli.err().startsWith("gpugen: " + bad + ":3:13: not valid JSON: "), cli.err());
    assertFalse(cli.err().contains("\tat "), "no stack trace without --verbose");

    Files.writeString(
        bad,
        "{\n  \"host\": \"a\",\n  \"passed\": true,\n  \"checks\": {\"x\": {\"status\": {}}}\n}\n");
    cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(1, cli.exit(), cli.toString());
    assertEquals("gpugen: " + bad + ":4:30: checks.x.status must be a string\n", cli.err());

    Files.writeString(bad, "{\"host\": \"a\", \"checks\": {}}");
    cli = Cli.run("report", "--reports", dir.toString());
    assertEquals("gpugen: " + bad + ":1:1: the report has no \"passed\"\n", cli.err());
  }

  @Test
  void foldersLinksAndMissingReportsAreRefused() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    // Nothing to read is 3, like an unreadable spec: 1 means a report that is not play 05's.
    Cli cli = Cli.run("report", "--reports", empty.toString());
    assertEquals(ExitCodes.ENVIRONMENT, cli.exit(), cli.toString());
    assertTrue(cli.err().contains("no reports in " + empty), cli.err());

    cli = Cli.run("report", tmp.resolve("render").toString());
    assertEquals(ExitCodes.ENVIRONMENT, cli.exit(), cli.toString());
    assertTrue(cli.err().contains("has no reports folder (ansible/reports or reports)"), cli.err());

    cli = Cli.run("report");
    assertEquals(2, cli.exit(), cli.toString());

    // The render folder's ansible/reports is found.
    Path render = tmp.resolve("render");
    ReportFixtures.fleet(render.resolve("ansible/reports"));
    cli = Cli.run("report", render.toString());
    assertEquals(0, cli.exit(), cli.toString());
    assertTrue(Files.isRegularFile(render.resolve("ansible/reports/index.html")));

    // A report that is a link is not read; a page that is a link is not written through.
    Path dir = ReportFixtures.fleet(tmp.resolve("r"));
    Path outside = Files.writeString(tmp.resolve("outside.txt"), "keep me\n");
    Files.createSymbolicLink(dir.resolve("zz-link.json"), dir.resolve("gpu-node-1.json"));
    cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(3, cli.exit(), cli.toString());
    assertTrue(cli.err().contains("zz-link.json is a symbolic link"), cli.err());
    Files.delete(dir.resolve("zz-link.json"));
    Files.createSymbolicLink(dir.resolve("index.html"), outside);
    cli = Cli.run("report", "--reports", dir.toString());
    assertEquals(1, cli.exit(), cli.toString());
    assertTrue(cli.err().contains("index.html is not a regular file"), cli.err());
    assertEquals("keep me\n", Files.readString(outside));
    Path linkDir = Files.createSymbolicLink(tmp.resolve("link-dir"), dir);
    cli = Cli.run("report", "--reports", linkDir.toString());
    assertEquals(1, cli.exit(), cli.toString());
    assertTrue(cli.err().contains("is a symbolic link"), cli.err());
  }

  /** Elements and attributes in the page that came from a report instead of from the page. */
  static List<String> markupFromReports(String page) {
    // Quoted attribute values hold escaped text only; what is left is the page's markup.
    String markup = page.replaceAll("\"[^\"]*\"", "\"\"");
    Matcher m =
        Pattern.compile(
                "<(script|img|iframe|object|embed|link|meta|b|a|i)\\b[^>]*>|<[a-z]+ [^>]*\\bon[a-z]+=[^>]*>")
            .matcher(markup);
    List<String> found = new java.util.ArrayList<>();
    while (m.find()) {
      String tag = m.group();
      // The page's own: its script, head, bold counts, pool links and legend swatches.
      if (tag.equals("<script>")
          || tag.equals("<b>")
          || tag.startsWith("<meta ")
          || tag.equals("<a href=\"\">")
          || tag.equals("<i class=\"\">")) {
        continue;
      }
      found.add(tag);
    }
    // The page has exactly one script element, its own.
    if (count(markup, "<script") != 1) {
      found.add(count(markup, "<script") + " script elements");
    }
    return found;
  }

  static void validate(String xsd, String xml) throws Exception {
    SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    Validator v =
        f.newSchema(Golden.repo().resolve("src/test/resources/junit-schema").resolve(xsd).toFile())
            .newValidator();
    v.validate(
        new StreamSource(new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))));
  }

  private static Element suite(NodeList suites, String name) {
    for (int i = 0; i < suites.getLength(); i++) {
      Element e = (Element) suites.item(i);
      if (e.getAttribute("name").equals(name)) {
        return e;
      }
    }
    throw new AssertionError("no suite " + name);
  }

  static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) {
      n++;
    }
    return n;
  }
}
