package dev.gpugen.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gpugen.inventory.Ec2InstanceSource;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The inventory's training run for the class-data-sharing archive the {@code gpugen} launcher
 * records after each build: {@code java -XX:DumpLoadedClassList=... -cp gpugen.jar
 * dev.gpugen.cli.ArchiveTraining SETTINGS}. It lists a cluster as a real run does (the settings
 * file, the credential chain of the environment, signing, paging by zone, the build, the JSON, the
 * cache written and then served) against a loopback EC2 of a few instances in this process, so that
 * the archive holds the classes a listing loads after its first EC2 answer too. The launcher leaves
 * this class and the loopback server's classes out of the archive. Not a command: nothing in the
 * CLI reaches it.
 */
public final class ArchiveTraining {
  private static final String NS = "http://ec2.amazonaws.com/doc/2016-11-15/";

  private ArchiveTraining() {}

  public static void main(String[] args) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.createContext("/", ArchiveTraining::answer);
    server.start();
    try {
      Map<String, String> env = new HashMap<>(System.getenv());
      env.put("GPUGEN_EC2_ENDPOINT", "http://127.0.0.1:" + server.getAddress().getPort());
      InventoryCommand.Context context =
          new InventoryCommand.Context(
              env,
              Clock.systemUTC(),
              config -> Ec2InstanceSource.withDefaultCredentials(config),
              Optional::empty,
              Optional.of(OutputStream.nullOutputStream()));
      PrintWriter quiet = new PrintWriter(new StringWriter());
      Path settings = Path.of(args[0]);
      // A listing that writes the cache, then one the cache serves.
      InventoryCommand.run(
          context, Optional.of(settings), Optional.empty(), false, false, quiet, quiet);
      InventoryCommand.run(
          context, Optional.of(settings), Optional.empty(), false, false, quiet, quiet);
    } finally {
      server.stop(0);
    }
  }

  /**
   * DescribeInstances: every instance carries the tags the request filters on; without a zone
   * filter the page has a NextToken, so that the listing goes on by zone.
   * DescribeAvailabilityZones: two zones.
   */
  private static void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      Map<String, String> form = new LinkedHashMap<>();
      for (String pair :
          new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          form.put(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
      StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
      if ("DescribeAvailabilityZones".equals(form.get("Action"))) {
        x.append("<DescribeAvailabilityZonesResponse xmlns=\"").append(NS).append("\">");
        x.append("<availabilityZoneInfo>");
        for (String zone : new String[] {"us-east-1a", "us-east-1b"}) {
          x.append("<item><zoneName>").append(zone).append("</zoneName></item>");
        }
        x.append("</availabilityZoneInfo></DescribeAvailabilityZonesResponse>");
      } else {
        Map<String, String> tags = new LinkedHashMap<>();
        String zone = null;
        for (int i = 1; form.containsKey("Filter." + i + ".Name"); i++) {
          String name = form.get("Filter." + i + ".Name");
          String value = form.getOrDefault("Filter." + i + ".Value.1", "");
          if (name.startsWith("tag:")) {
            tags.put(name.substring(4), value);
          } else if (name.equals("availability-zone")) {
            zone = value;
          }
        }
        x.append("<DescribeInstancesResponse xmlns=\"").append(NS).append("\">");
        x.append("<reservationSet><item><ownerId>123456789012</ownerId><instancesSet>");
        for (int i = 0; i < 3; i++) {
          String z = zone != null ? zone : i % 2 == 0 ? "us-east-1a" : "us-east-1b";
          x.append("<item><instanceId>i-0000000000000000").append(z.endsWith("a") ? i : i + 3);
          x.append("</instanceId><instanceType>p5.48xlarge</instanceType>");
          x.append("<instanceState><code>16</code><name>running</name></instanceState>");
          x.append("<privateDnsName>ip-10-0-0-").append(i).append(".ec2.internal</privateDnsName>");
          x.append("<privateIpAddress>10.0.0.").append(i).append("</privateIpAddress>");
          x.append("<launchTime>2025-01-02T03:04:05.000Z</launchTime>");
          x.append("<placement><availabilityZone>").append(z).append("</availabilityZone>");
          x.append("</placement><tagSet>");
          tags.forEach(
              (k, v) ->
                  x.append("<item><key>")
                      .append(escape(k))
                      .append("</key><value>")
                      .append(escape(v))
                      .append("</value></item>"));
          x.append("<item><key>Name</key><value>node-").append(z).append(i);
          x.append("</value></item></tagSet></item>");
        }
        x.append("</instancesSet></item></reservationSet>");
        if (zone == null) {
          x.append("<nextToken>training</nextToken>");
        }
        x.append("</DescribeInstancesResponse>");
      }
      byte[] body = x.toString().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/xml;charset=UTF-8");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
