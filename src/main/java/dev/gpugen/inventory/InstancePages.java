package dev.gpugen.inventory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.utils.DateUtils;

/**
 * Reads a successful DescribeInstances page straight from the response stream into {@link
 * HostFacts}, in one pass and keeping only the fields the inventory uses.
 *
 * <p>The SDK would build a DOM of each page and then a model object for every one of the ~100
 * fields of every instance: at 16,000 instances that is most of a cold run's CPU. The SDK still
 * signs, sends, retries, times out and turns error responses into exceptions; this interceptor
 * takes only a 2xx body of a request marked with {@link #PAGE} and hands the SDK an empty response
 * in its place. The element names and nesting are those of the EC2 API reference
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html, response
 * elements; https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Instance.html): only the
 * instance item's own children are read, so the {@code privateIpAddress} of a network interface or
 * the {@code groupName} of a security group never stand in for the instance's.
 */
final class InstancePages implements ExecutionInterceptor {
  /** Marks a DescribeInstances request and receives its page. */
  static final ExecutionAttribute<Page> PAGE = new ExecutionAttribute<>("gpugen.instancePage");

  private static final byte[] EMPTY =
      ("<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
              + "<reservationSet/></DescribeInstancesResponse>")
          .getBytes(StandardCharsets.UTF_8);

  private static final XMLInputFactory XML = factory();

  /** One page: its instances and its NextToken, filled by the last successful attempt. */
  static final class Page {
    private final String region;
    private volatile List<HostFacts> hosts = List.of();
    private volatile String nextToken;

    Page(String region) {
      this.region = region;
    }

    List<HostFacts> hosts() {
      return hosts;
    }

    /** The token of the next page, or null on the last one. */
    String nextToken() {
      return nextToken;
    }
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    Page page = attributes.getAttribute(PAGE);
    if (page == null
        || !context.httpResponse().isSuccessful()
        || context.responseBody().isEmpty()) {
      return context.responseBody();
    }
    try (InputStream body = context.responseBody().get()) {
      read(body, page);
    } catch (XMLStreamException | RuntimeException e) {
      throw SdkClientException.create(
          "the DescribeInstances response is not EC2 XML: " + Ec2Failures.clip(e.getMessage()), e);
    } catch (IOException e) {
      throw SdkClientException.create("reading the DescribeInstances response failed", e);
    }
    return Optional.of(new ByteArrayInputStream(EMPTY));
  }

  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    // Cloud data is hostile: no DTD, no entities from outside, no entity expansion at all.
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    return factory;
  }

  /** Parses one page into {@code page}. */
  static void read(InputStream body, Page page) throws XMLStreamException {
    XMLStreamReader xml = XML.createXMLStreamReader(body);
    try {
      xml.nextTag();
      if (!"DescribeInstancesResponse".equals(xml.getLocalName())) {
        throw new XMLStreamException(
            "the document is <" + Ec2Failures.clip(xml.getLocalName()) + ">, not a page");
      }
      List<HostFacts> hosts = new ArrayList<>();
      String nextToken = null;
      while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
        switch (xml.getLocalName()) {
          case "reservationSet" -> reservations(xml, page.region, hosts);
          case "nextToken" -> nextToken = xml.getElementText();
          default -> skip(xml);
        }
      }
      page.hosts = hosts;
      page.nextToken = nextToken == null || nextToken.isEmpty() ? null : nextToken;
    } finally {
      xml.close();
    }
  }

  private static void reservations(XMLStreamReader xml, String region, List<HostFacts> hosts)
      throws XMLStreamException {
    while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
      if (!"item".equals(xml.getLocalName())) {
        skip(xml);
        continue;
      }
      // EC2 writes ownerId before instancesSet; a host keeps the owner read before it.
      String owner = null;
      while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
        if ("ownerId".equals(xml.getLocalName())) {
          owner = xml.getElementText();
          continue;
        }
        if (!"instancesSet".equals(xml.getLocalName())) {
          skip(xml);
          continue;
        }
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
          if ("item".equals(xml.getLocalName())) {
            hosts.add(instance(xml, region, owner));
          } else {
            skip(xml);
          }
        }
      }
    }
  }

  private static HostFacts instance(XMLStreamReader xml, String region, String owner)
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
    while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
      switch (xml.getLocalName()) {
        case "instanceId" -> id = xml.getElementText();
        case "instanceType" -> type = xml.getElementText();
        case "imageId" -> image = xml.getElementText();
        case "instanceLifecycle" -> lifecycle = xml.getElementText();
        case "privateIpAddress" -> privateIp = xml.getElementText();
        case "ipAddress" -> publicIp = xml.getElementText();
        case "privateDnsName" -> privateDns = xml.getElementText();
        case "launchTime" -> launchTime = xml.getElementText();
        case "instanceState" -> {
          while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            if ("name".equals(xml.getLocalName())) {
              state = xml.getElementText();
            } else {
              skip(xml);
            }
          }
        }
        case "placement" -> {
          while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            switch (xml.getLocalName()) {
              case "availabilityZone" -> zone = xml.getElementText();
              case "groupName" -> group = xml.getElementText();
              default -> skip(xml);
            }
          }
        }
        case "tagSet" -> tags(xml, tags);
        default -> skip(xml);
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
  private static void tags(XMLStreamReader xml, Map<String, String> tags)
      throws XMLStreamException {
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

  /** Skips the current element and everything in it. */
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

  /** The launch time as the SDK reads it; a value that is none is dropped like a missing one. */
  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(DateUtils.parseIso8601Date(text));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }
}
