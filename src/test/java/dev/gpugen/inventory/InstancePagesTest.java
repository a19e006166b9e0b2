package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;

/** The streaming reader of DescribeInstances pages, on the nesting real EC2 answers with. */
class InstancePagesTest {
  private static InstancePages.Page read(String xml) throws XMLStreamException {
    InstancePages.Page page = new InstancePages.Page("us-east-1");
    InstancePages.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), page);
    return page;
  }

  @Test
  void onlyTheInstancesOwnFieldsAreReadNotThoseOfItsInterfacesGroupsOrVolumes() throws Exception {
    InstancePages.Page page = new InstancePages.Page("us-east-1");
    try (InputStream in =
        Files.newInputStream(Path.of("src/test/resources/inventory/describe-instances-page.xml"))) {
      InstancePages.read(in, page);
    }
    assertEquals("eyJ2IjoiMiIsImMiOiJ0b2tlbiJ9", page.nextToken());
    List<HostFacts> hosts = page.hosts();
    assertEquals(2, hosts.size());
    HostFacts a = hosts.get(0);
    assertEquals(
        new HostFacts(
            "i-1234567890abcdef0",
            "us-east-1",
            "p5.48xlarge",
            Optional.of("us-east-1b"),
            "running",
            Optional.of("spot"),
            Optional.of("10.0.1.7"),
            Optional.empty(),
            Optional.of("ip-10-0-1-7.ec2.internal"),
            Optional.of(Instant.parse("2025-03-04T05:06:07Z")),
            Map.of("Name", "node-7", "gpugen:pool", "h100", "Empty", ""),
            Optional.of("ami-0abcdef1234567890"),
            Optional.of("pg-h100"),
            Optional.of("123456789012")),
        a);
    HostFacts b = hosts.get(1);
    assertEquals("stopped", b.state());
    assertEquals(Optional.of("203.0.113.8"), b.publicIp());
    assertEquals(Optional.empty(), b.placementGroup(), "an empty groupName is no group");
    assertEquals(Optional.empty(), b.launchTime(), "a launch time that is none is dropped");
    assertEquals(Optional.empty(), b.imageId());
    assertEquals(Map.of(), b.tags());
  }

  @Test
  void theLastPageHasNoToken() throws Exception {
    InstancePages.Page page =
        read(
            "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
                + "<requestId>x</requestId><reservationSet/><nextToken/>"
                + "</DescribeInstancesResponse>");
    assertNull(page.nextToken());
    assertEquals(List.of(), page.hosts());
  }

  @Test
  void anInstanceWithoutAnIdIsReadWithAnEmptyIdForTheSourceToRefuse() throws Exception {
    InstancePages.Page page =
        read(
            "<DescribeInstancesResponse><reservationSet><item><instancesSet><item>"
                + "<instanceType>p5.48xlarge</instanceType></item></instancesSet></item>"
                + "</reservationSet></DescribeInstancesResponse>");
    assertEquals("", page.hosts().get(0).instanceId());
  }

  @Test
  void entitiesAndOtherDocumentsAreNotPages() {
    String laughs =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\">"
            + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
            + "<DescribeInstancesResponse><nextToken>&b;</nextToken></DescribeInstancesResponse>";
    assertThrows(XMLStreamException.class, () -> read(laughs));
    XMLStreamException other =
        assertThrows(XMLStreamException.class, () -> read("<html><body>hi</body></html>"));
    assertTrue(other.getMessage().contains("<html>"), other.getMessage());
    assertThrows(
        XMLStreamException.class, () -> read("<DescribeInstancesResponse><reservationSet>"));
    assertThrows(
        XMLStreamException.class,
        () ->
            read(
                "<DescribeInstancesResponse><reservationSet><item><instancesSet><item>"
                    + "<instanceId>i-1<b>x</b></instanceId></item></instancesSet></item>"
                    + "</reservationSet></DescribeInstancesResponse>"));
  }
}
