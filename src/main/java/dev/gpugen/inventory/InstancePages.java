package dev.gpugen.inventory;

import java.io.IOException;
import java.io.InputStream;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.utils.DateUtils;

/**
 * Reads a successful DescribeInstances page into {@link HostFacts}, in one pass over its bytes
 * ({@link Ec2Xml}) and keeping only the fields the inventory uses.
 *
 * <p>The SDK's generated client would build a DOM of each page and then a model object for every
 * one of the ~100 fields of every instance: at 16,000 instances that was most of a cold run's CPU.
 * The element names and nesting are those of the EC2 API reference
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html, response
 * elements; https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Instance.html): only the
 * instance item's own children are read, so the {@code privateIpAddress} of a network interface or
 * the {@code groupName} of a security group never stand in for the instance's.
 */
final class InstancePages {
  private InstancePages() {}

  /** One page: its instances and its NextToken. */
  static final class Page {
    private final String region;
    private volatile List<HostFacts> hosts = List.of();
    private volatile String nextToken;

    /** The response, kept while its instances may still be read ({@link #readInstances}). */
    private byte[] doc;

    private int length;

    Page(String region) {
      this.region = region;
    }

    Page(String region, byte[] doc, int length) {
      this.region = region;
      this.doc = doc;
      this.length = length;
    }

    /** Reads the instances of a page read for its NextToken only, then lets its bytes go. */
    void readInstances() throws XMLStreamException {
      if (doc == null) {
        throw new IllegalStateException("the page's bytes are gone");
      }
      read(doc, length, this, true);
      doc = null;
    }

    /** The page's bytes are not needed any more. */
    void release() {
      doc = null;
    }

    List<HostFacts> hosts() {
      return hosts;
    }

    /** The token of the next page, or null on the last one. */
    String nextToken() {
      return nextToken;
    }
  }

  /** Parses one page from {@code body} into {@code page}; an I/O error is the exception's cause. */
  static void read(InputStream body, Page page) throws XMLStreamException {
    byte[] bytes;
    try {
      bytes = body.readAllBytes();
    } catch (IOException e) {
      XMLStreamException failure = new XMLStreamException("reading the page failed: " + e);
      failure.initCause(e);
      throw failure;
    }
    read(bytes, bytes.length, page, true);
  }

  /**
   * Parses the page in {@code doc[0..length)} into {@code page}: its instances if {@code
   * instances}, else only its NextToken (the instances are checked as XML and passed over).
   */
  static void read(byte[] doc, int length, Page page, boolean instances) throws XMLStreamException {
    Ec2Xml xml = new Ec2Xml(doc, length);
    if (!xml.nextTag() || !xml.is("DescribeInstancesResponse")) {
      throw new XMLStreamException(
          "the document is <" + Ec2Failures.clip(xml.name()) + ">, not a page");
    }
    List<HostFacts> hosts = new ArrayList<>();
    String nextToken = null;
    while (xml.nextTag()) {
      if (xml.is("reservationSet") && instances) {
        reservations(xml, page.region, hosts);
      } else if (xml.is("nextToken")) {
        nextToken = xml.text();
      } else {
        xml.skip();
      }
    }
    page.hosts = hosts;
    page.nextToken = nextToken == null || nextToken.isEmpty() ? null : nextToken;
  }

  private static void reservations(Ec2Xml xml, String region, List<HostFacts> hosts)
      throws XMLStreamException {
    while (xml.nextTag()) {
      if (!xml.is("item")) {
        xml.skip();
        continue;
      }
      // EC2 writes ownerId before instancesSet; a host keeps the owner read before it.
      String owner = null;
      while (xml.nextTag()) {
        if (xml.is("ownerId")) {
          owner = xml.text();
        } else if (xml.is("instancesSet")) {
          while (xml.nextTag()) {
            if (xml.is("item")) {
              hosts.add(instance(xml, region, owner));
            } else {
              xml.skip();
            }
          }
        } else {
          xml.skip();
        }
      }
    }
  }

  private static HostFacts instance(Ec2Xml xml, String region, String owner)
      throws XMLStreamException {
    String id = "";
    String type = null;
    String zone = null;
    String group = null;
    String state = null;
    String lifecycle = null;
    String privateIp = null;
    String publicIp = null;
    String privateDns = null;
    String launchTime = null;
    String image = null;
    Map<String, String> tags = new LinkedHashMap<>();
    while (xml.nextTag()) {
      if (xml.is("instanceId")) {
        id = xml.text();
      } else if (xml.is("instanceType")) {
        type = xml.text();
      } else if (xml.is("imageId")) {
        image = xml.text();
      } else if (xml.is("instanceLifecycle")) {
        lifecycle = xml.text();
      } else if (xml.is("privateIpAddress")) {
        privateIp = xml.text();
      } else if (xml.is("ipAddress")) {
        publicIp = xml.text();
      } else if (xml.is("privateDnsName")) {
        privateDns = xml.text();
      } else if (xml.is("launchTime")) {
        launchTime = xml.text();
      } else if (xml.is("instanceState")) {
        while (xml.nextTag()) {
          if (xml.is("name")) {
            state = xml.text();
          } else {
            xml.skip();
          }
        }
      } else if (xml.is("placement")) {
        while (xml.nextTag()) {
          if (xml.is("availabilityZone")) {
            zone = xml.text();
          } else if (xml.is("groupName")) {
            group = xml.text();
          } else {
            xml.skip();
          }
        }
      } else if (xml.is("tagSet")) {
        tags(xml, tags);
      } else {
        xml.skip();
      }
    }
    return new HostFacts(
        id,
        region,
        nonEmpty(type).orElse("unknown"),
        nonEmpty(zone),
        nonEmpty(state).orElse("unknown"),
        nonEmpty(lifecycle),
        nonEmpty(privateIp),
        nonEmpty(publicIp),
        nonEmpty(privateDns),
        nonEmpty(launchTime).flatMap(InstancePages::instant),
        tags,
        nonEmpty(image),
        nonEmpty(group),
        nonEmpty(owner));
  }

  /** The tag items; a key given twice keeps its first value, an item without a key is ignored. */
  private static void tags(Ec2Xml xml, Map<String, String> tags) throws XMLStreamException {
    while (xml.nextTag()) {
      if (!xml.is("item")) {
        xml.skip();
        continue;
      }
      String key = null;
      String value = "";
      while (xml.nextTag()) {
        if (xml.is("key")) {
          key = xml.text();
        } else if (xml.is("value")) {
          value = xml.text();
        } else {
          xml.skip();
        }
      }
      if (key != null) {
        tags.putIfAbsent(key, value);
      }
    }
  }

  /**
   * The launch time as the SDK reads it ({@link DateUtils#parseIso8601Date}); a value that is none
   * is dropped like a missing one. EC2's own form, {@code 2025-03-04T05:06:07.000Z}, is read
   * directly: the SDK's formatter took a tenth of a page's time.
   */
  static Optional<Instant> instant(String text) {
    Instant fast = utcSeconds(text);
    if (fast != null) {
      return Optional.of(fast);
    }
    try {
      return Optional.of(DateUtils.parseIso8601Date(text));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** {@code YYYY-MM-DDTHH:MM:SS[.fff]Z} with a valid date and time, else null (the SDK decides). */
  private static Instant utcSeconds(String t) {
    int n = t.length();
    if ((n != 20 && n != 24)
        || t.charAt(4) != '-'
        || t.charAt(7) != '-'
        || t.charAt(10) != 'T'
        || t.charAt(13) != ':'
        || t.charAt(16) != ':'
        || t.charAt(n - 1) != 'Z'
        || (n == 24 && t.charAt(19) != '.')) {
      return null;
    }
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    int second = digits(t, 17, 2);
    int millis = n == 24 ? digits(t, 20, 3) : 0;
    if (year < 1000
        || month < 0
        || day < 0
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59
        || millis < 0) {
      return null;
    }
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second, millis * 1_000_000)
          .toInstant(ZoneOffset.UTC);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** The {@code count} decimal digits at {@code from}, or -1. */
  private static int digits(String t, int from, int count) {
    int v = 0;
    for (int i = from; i < from + count; i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }
}
