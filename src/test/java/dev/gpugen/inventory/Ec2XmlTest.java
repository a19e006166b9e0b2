package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gpugen's reader of EC2's XML against the JDK's own StAX parser (java.xml, namespace aware, no
 * DTD, coalescing): the same pages, written every way XML allows (references, CDATA, comments and
 * instructions inside values, CR LF, prefixes, attributes, empty elements, non-ASCII), give the
 * same instances; documents that are not well-formed XML, or that need a DTD, are refused by both.
 */
class Ec2XmlTest {
  private static final String NS = "http://ec2.amazonaws.com/doc/2016-11-15/";

  @Test
  void randomPagesReadAsTheJdkParserReadsThem() throws Exception {
    Random random = new Random(20_251_202L);
    for (int round = 0; round < 400; round++) {
      String doc = new PageWriter(random).page();
      byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
      InstancePages.Page ours = new InstancePages.Page("us-east-1");
      InstancePages.read(new ByteArrayInputStream(bytes), ours);
      Reference theirs = Reference.read(bytes);
      assertEquals(theirs.hosts, ours.hosts(), doc);
      assertEquals(theirs.nextToken, ours.nextToken(), doc);
    }
  }

  @Test
  void theFirstPageCanBeReadForItsTokenAndLaterForItsInstances() throws Exception {
    String doc = new PageWriter(new Random(7)).page();
    byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
    InstancePages.Page tokenOnly = new InstancePages.Page("us-east-1", bytes, bytes.length);
    InstancePages.read(bytes, bytes.length, tokenOnly, false);
    Reference theirs = Reference.read(bytes);
    assertEquals(theirs.nextToken, tokenOnly.nextToken());
    assertEquals(List.of(), tokenOnly.hosts());
    tokenOnly.readInstances();
    assertEquals(theirs.hosts, tokenOnly.hosts());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<DescribeInstancesResponse><reservationSet></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>a</nextToke></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>a &amp b</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>&nbsp;</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>&#0;</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>&#xD800;</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>&#x;</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>a\u0001b</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>a]]>b</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><nextToken>a<b</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse>text<nextToken>a</nextToken></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><requestId a=1>x</requestId></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><requestId a='<'>x</requestId></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><requestId a='1'b='2'>x</requestId></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><requestId>x</requestId>",
        "<DescribeInstancesResponse><a:b:c>x</a:b:c></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><1a>x</1a></DescribeInstancesResponse>",
        "<DescribeInstancesResponse><x><!DOCTYPE y></x></DescribeInstancesResponse>",
        "<!DOCTYPE r [<!ENTITY e \"x\">]><DescribeInstancesResponse>&e;</DescribeInstancesResponse>",
        "<DescribeInstancesResponse><x><![CDATA[a]]></x><nextToken><![CDATA[a]]></DescribeInstancesResponse>",
        ""
      })
  void documentsThatAreNotWellFormedAreRefusedLikeTheJdkRefusesThem(String doc) {
    byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
    assertThrows(XMLStreamException.class, () -> Reference.read(bytes), "the JDK accepts " + doc);
    assertThrows(
        XMLStreamException.class,
        () -> InstancePages.read(new ByteArrayInputStream(bytes), new InstancePages.Page("r")),
        doc);
  }

  @Test
  void aDocumentDeclaredInAnotherEncodingIsRefused() {
    // EC2 answers in UTF-8; the JDK would read this one as Latin-1.
    byte[] doc =
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><DescribeInstancesResponse/>"
            .getBytes(StandardCharsets.UTF_8);
    assertThrows(
        XMLStreamException.class,
        () -> InstancePages.read(new ByteArrayInputStream(doc), new InstancePages.Page("r")));
  }

  @Test
  void malformedUtf8InAValueIsRefused() {
    for (byte[] bad :
        new byte[][] {
          {(byte) 0xC0, (byte) 0x80}, // overlong NUL
          {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong '/'
          {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate
          {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // past U+10FFFF
          {(byte) 0xFF},
          {(byte) 0xE2, (byte) 0x82} // cut short
        }) {
      byte[] head = "<DescribeInstancesResponse><nextToken>".getBytes(StandardCharsets.UTF_8);
      byte[] tail = "</nextToken></DescribeInstancesResponse>".getBytes(StandardCharsets.UTF_8);
      byte[] doc = new byte[head.length + bad.length + tail.length];
      System.arraycopy(head, 0, doc, 0, head.length);
      System.arraycopy(bad, 0, doc, head.length, bad.length);
      System.arraycopy(tail, 0, doc, head.length + bad.length, tail.length);
      assertThrows(XMLStreamException.class, () -> Reference.read(doc));
      assertThrows(
          XMLStreamException.class,
          () -> InstancePages.read(new ByteArrayInputStream(doc), new InstancePages.Page("r")));
    }
  }

  /** Random pages, each value written one of the ways XML allows. */
  private static final class PageWriter {
    private final Random random;
    private final StringBuilder x = new StringBuilder();
    private String prefix = "";

    PageWriter(Random random) {
      this.random = random;
    }

    String page() {
      if (random.nextInt(4) == 0) {
        x.append("\uFEFF");
      }
      if (random.nextBoolean()) {
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
      }
      if (random.nextInt(4) == 0) {
        x.append("<!-- a comment --><?pi data?>\n");
      }
      boolean prefixed = random.nextInt(5) == 0;
      prefix = prefixed ? "ec2:" : "";
      open("DescribeInstancesResponse");
      x.setLength(x.length() - 1);
      x.append(prefixed ? " xmlns:ec2=\"" : " xmlns=\"").append(NS).append("\">");
      element("requestId", "req-" + random.nextInt(1000));
      open("reservationSet");
      for (int r = random.nextInt(4); r > 0; r--) {
        open("item");
        element("reservationId", "r-" + random.nextInt(1000));
        if (random.nextInt(5) > 0) {
          element("ownerId", pick("123456789012", "", "x&y"));
        }
        open("groupSet");
        open("item");
        element("groupName", "reservation-group");
        close("item");
        close("groupSet");
        open("instancesSet");
        for (int i = random.nextInt(4); i > 0; i--) {
          instance();
        }
        close("instancesSet");
        close("item");
      }
      close("reservationSet");
      switch (random.nextInt(3)) {
        case 0 -> element("nextToken", value());
        case 1 -> element("nextToken", "");
        default -> {}
      }
      close("DescribeInstancesResponse");
      if (random.nextBoolean()) {
        x.append("\n<!-- after -->\n");
      }
      return x.toString();
    }

    private void instance() {
      open("item");
      List<Runnable> fields = new ArrayList<>();
      fields.add(() -> element("instanceId", pick("i-0123456789abcdef0", "i-1", "")));
      fields.add(() -> element("instanceType", value()));
      fields.add(() -> element("imageId", value()));
      fields.add(() -> element("instanceLifecycle", pick("spot", "", value())));
      fields.add(() -> element("privateIpAddress", value()));
      fields.add(() -> element("ipAddress", value()));
      fields.add(() -> element("privateDnsName", value()));
      fields.add(
          () ->
              element(
                  "launchTime", pick("2025-03-04T05:06:07.000Z", "2025-02-30T00:00:00Z", value())));
      fields.add(
          () -> {
            open("instanceState");
            element("code", "16");
            element("name", value());
            close("instanceState");
          });
      fields.add(
          () -> {
            open("placement");
            element("availabilityZone", value());
            element("groupName", value());
            element("tenancy", "default");
            close("placement");
          });
      fields.add(
          () -> {
            open("networkInterfaceSet");
            open("item");
            element("privateIpAddress", "10.9.9.9");
            element("ipAddress", "198.51.100.1");
            open("groupSet");
            open("item");
            element("groupName", "interface-group");
            close("item");
            close("groupSet");
            close("item");
            close("networkInterfaceSet");
          });
      fields.add(
          () -> {
            open("tagSet");
            for (int t = random.nextInt(5); t > 0; t--) {
              open("item");
              if (random.nextInt(6) > 0) {
                element("key", pick("Name", "gpugen:pool", "team", value()));
              }
              if (random.nextInt(6) > 0) {
                element("value", value());
              }
              close("item");
            }
            close("tagSet");
          });
      java.util.Collections.shuffle(fields, random);
      fields.forEach(Runnable::run);
      close("item");
    }

    private String pick(String... values) {
      return values[random.nextInt(values.length)];
    }

    private String value() {
      return pick(
          "plain",
          "p5.48xlarge",
          "10.0.1.7",
          "a < b & \"c\" 'd' > e",
          "caf\u00e9 \u4e2d\u6587 \uD83D\uDE00",
          "line1\r\nline2\rline3\nline4",
          "tab\there",
          "{{ jinja }}",
          "  spaced  ",
          "]]",
          "");
    }

    private void open(String name) {
      space();
      x.append('<').append(prefix).append(name);
      if (random.nextInt(8) == 0) {
        x.append(" attr=\"1 &amp; 2\" other='x'");
      }
      if (random.nextInt(8) == 0) {
        x.append(' ');
      }
      x.append('>');
    }

    private void close(String name) {
      space();
      x.append("</").append(prefix).append(name).append(random.nextInt(8) == 0 ? " >" : ">");
    }

    private void space() {
      switch (random.nextInt(6)) {
        case 0 -> x.append("\n    ");
        case 1 -> x.append("\r\n\t");
        case 2 -> x.append("<!-- c -->");
        default -> {}
      }
    }

    private void element(String name, String value) {
      if (value.isEmpty() && random.nextBoolean()) {
        space();
        x.append('<').append(prefix).append(name).append(random.nextBoolean() ? "/>" : " />");
        return;
      }
      open(name);
      text(value);
      x.append("</").append(prefix).append(name).append('>');
    }

    /** {@code value} as XML text, each character escaped one of the allowed ways. */
    private void text(String value) {
      int mode = random.nextInt(5);
      if (mode == 0 && !value.contains("]]>") && !value.contains("\r")) {
        x.append("<![CDATA[").append(value).append("]]>");
        return;
      }
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (random.nextInt(20) == 0) {
          x.append(random.nextBoolean() ? "<!--in-->" : "<?in value?>");
        }
        switch (c) {
          case '<' -> x.append(random.nextBoolean() ? "&lt;" : "&#60;");
          case '&' -> x.append(random.nextBoolean() ? "&amp;" : "&#x26;");
          case '>' -> x.append(random.nextBoolean() ? "&gt;" : ">");
          case '"' -> x.append(random.nextBoolean() ? "&quot;" : "\"");
          case '\'' -> x.append(random.nextBoolean() ? "&apos;" : "'");
          case '\r' -> x.append(random.nextBoolean() ? "&#13;" : "\r");
          default -> {
            if (random.nextInt(10) == 0 && !Character.isSurrogate(c)) {
              x.append("&#x").append(Integer.toHexString(c)).append(';');
            } else {
              x.append(c);
            }
          }
        }
      }
    }
  }

  /**
   * The pages as the JDK's StAX parser reads them, with the element logic the inventory used before
   * it read the bytes itself.
   */
  private static final class Reference {
    private final List<HostFacts> hosts = new ArrayList<>();
    private String nextToken;

    static Reference read(byte[] doc) throws XMLStreamException {
      XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
      factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
      factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
      factory.setProperty(XMLInputFactory.IS_COALESCING, true);
      factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
      XMLStreamReader xml = factory.createXMLStreamReader(new ByteArrayInputStream(doc), "UTF-8");
      Reference page = new Reference();
      xml.nextTag();
      if (!"DescribeInstancesResponse".equals(xml.getLocalName())) {
        throw new XMLStreamException("not a page");
      }
      String token = null;
      while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
        switch (xml.getLocalName()) {
          case "reservationSet" -> page.reservations(xml);
          case "nextToken" -> token = xml.getElementText();
          default -> skip(xml);
        }
      }
      // Past the root: the rest must be well-formed too.
      while (xml.hasNext()) {
        xml.next();
      }
      page.nextToken = token == null || token.isEmpty() ? null : token;
      return page;
    }

    private void reservations(XMLStreamReader xml) throws XMLStreamException {
      while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
        if (!"item".equals(xml.getLocalName())) {
          skip(xml);
          continue;
        }
        String owner = null;
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
          if ("ownerId".equals(xml.getLocalName())) {
            owner = xml.getElementText();
          } else if ("instancesSet".equals(xml.getLocalName())) {
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
              if ("item".equals(xml.getLocalName())) {
                hosts.add(instance(xml, owner));
              } else {
                skip(xml);
              }
            }
          } else {
            skip(xml);
          }
        }
      }
    }

    private static HostFacts instance(XMLStreamReader xml, String owner) throws XMLStreamException {
      Map<String, String> f = new LinkedHashMap<>();
      Map<String, String> tags = new LinkedHashMap<>();
      while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
        String name = xml.getLocalName();
        switch (name) {
          case "instanceId",
              "instanceType",
              "imageId",
              "instanceLifecycle",
              "privateIpAddress",
              "ipAddress",
              "privateDnsName",
              "launchTime" ->
              f.put(name, xml.getElementText());
          case "instanceState" -> {
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
              if ("name".equals(xml.getLocalName())) {
                f.put("state", xml.getElementText());
              } else {
                skip(xml);
              }
            }
          }
          case "placement" -> {
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
              switch (xml.getLocalName()) {
                case "availabilityZone" -> f.put("zone", xml.getElementText());
                case "groupName" -> f.put("group", xml.getElementText());
                default -> skip(xml);
              }
            }
          }
          case "tagSet" -> {
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
              if (!"item".equals(xml.getLocalName())) {
                skip(xml);
                continue;
              }
              String key = null;
              String value = "";
              while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                switch (xml.getLocalName()) {
                  case "key" -> key = xml.getElementText();
                  case "value" -> value = xml.getElementText();
                  default -> skip(xml);
                }
              }
              if (key != null) {
                tags.putIfAbsent(key, value);
              }
            }
          }
          default -> skip(xml);
        }
      }
      return new HostFacts(
          f.getOrDefault("instanceId", ""),
          "us-east-1",
          nonEmpty(f.get("instanceType")).orElse("unknown"),
          nonEmpty(f.get("zone")),
          nonEmpty(f.get("state")).orElse("unknown"),
          nonEmpty(f.get("instanceLifecycle")),
          nonEmpty(f.get("privateIpAddress")),
          nonEmpty(f.get("ipAddress")),
          nonEmpty(f.get("privateDnsName")),
          nonEmpty(f.get("launchTime")).flatMap(Reference::instant),
          tags,
          nonEmpty(f.get("imageId")),
          nonEmpty(f.get("group")),
          nonEmpty(owner));
    }

    private static void skip(XMLStreamReader xml) throws XMLStreamException {
      for (int depth = 1; depth > 0; ) {
        int event = xml.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          depth++;
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          depth--;
        }
      }
    }

    private static Optional<String> nonEmpty(String value) {
      return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** The launch time as the SDK reads it, without the reader's shortcut for EC2's form. */
    private static Optional<java.time.Instant> instant(String text) {
      try {
        return Optional.of(software.amazon.awssdk.utils.DateUtils.parseIso8601Date(text));
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }
  }
}
