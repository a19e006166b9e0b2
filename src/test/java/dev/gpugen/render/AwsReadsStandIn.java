package dev.gpugen.render;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The three AWS reads a gpugen render's data sources make during a plan, answered on 127.0.0.1 in
 * the services' own protocols, and nothing else: STS GetCallerIdentity and EC2
 * DescribeAvailabilityZones (AWS Query protocol, form POST, XML answers) and EKS
 * DescribeAddonVersions (REST-JSON, GET /addons/supported-versions). Any other call is refused with
 * the service's error shape, so a plan that would read more fails instead of passing unnoticed.
 *
 * <p>Shapes from the API references: STS GetCallerIdentity
 * (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html), EC2
 * DescribeAvailabilityZones
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeAvailabilityZones.html) and
 * EKS DescribeAddonVersions
 * (https://docs.aws.amazon.com/eks/latest/APIReference/API_DescribeAddonVersions.html). The region
 * is the one the client signed for (the credential scope of its SigV4 Authorization header).
 */
final class AwsReadsStandIn implements AutoCloseable {
  static final String ACCOUNT = "123456789012";
  static final String ADDON_VERSION = "v1.0.0-eksbuild.1";

  private static final Pattern SCOPE =
      Pattern.compile("Credential=[^/]+/[0-9]{8}/([a-z0-9-]+)/([a-z0-9]+)/aws4_request");

  private final HttpServer server;
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

  private AwsReadsStandIn(HttpServer server) {
    this.server = server;
  }

  static AwsReadsStandIn start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AwsReadsStandIn s = new AwsReadsStandIn(server);
    server.createContext("/", s::handle);
    server.start();
    return s;
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The calls answered so far, as SERVICE:Action (region). */
  List<String> calls() {
    return List.copyOf(calls);
  }

  /** The zones the stand-in lists in a region (the mock of an apply must name the same). */
  static List<String> zones(String region) {
    return List.of(region + "a", region + "b", region + "c", region + "d");
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      Matcher scope =
          SCOPE.matcher(String.valueOf(x.getRequestHeaders().getFirst("Authorization")));
      if (!scope.find()) {
        reply(x, 403, "text/xml", error("MissingAuthenticationToken", "Request is not signed."));
        return;
      }
      String region = scope.group(1);
      String service = scope.group(2);
      if (service.equals("eks")) {
        eks(x, region);
        return;
      }
      Map<String, String> form =
          "POST".equals(x.getRequestMethod())
              ? form(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
              : Map.of();
      String action = form.getOrDefault("Action", "");
      calls.add(service + ":" + action + " (" + region + ")");
      if (service.equals("sts")
          && action.equals("GetCallerIdentity")
          && form.getOrDefault("Version", "").equals("2011-06-15")) {
        reply(
            x,
            200,
            "text/xml",
            "<GetCallerIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<GetCallerIdentityResult><Arn>arn:aws:iam::"
                + ACCOUNT
                + ":user/gpugen-test</Arn><UserId>AIDACKCEVSQ6C2EXAMPLE</UserId><Account>"
                + ACCOUNT
                + "</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>"
                + "01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata>"
                + "</GetCallerIdentityResponse>");
      } else if (service.equals("ec2")
          && action.equals("DescribeAvailabilityZones")
          && form.getOrDefault("Version", "").equals("2016-11-15")) {
        StringBuilder b =
            new StringBuilder(
                "<DescribeAvailabilityZonesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
                    + "<requestId>01234567-89ab-cdef-0123-456789abcdef</requestId>"
                    + "<availabilityZoneInfo>");
        int n = 1;
        for (String zone : zones(region)) {
          b.append("<item><zoneName>")
              .append(zone)
              .append("</zoneName><zoneState>available</zoneState><regionName>")
              .append(region)
              .append("</regionName><zoneId>az")
              .append(n++)
              .append("</zoneId><optInStatus>opt-in-not-required</optInStatus>")
              .append("<zoneType>availability-zone</zoneType><groupName>")
              .append(region)
              .append("</groupName><networkBorderGroup>")
              .append(region)
              .append("</networkBorderGroup><messageSet/></item>");
        }
        reply(
            x,
            200,
            "text/xml",
            b.append("</availabilityZoneInfo></DescribeAvailabilityZonesResponse>").toString());
      } else {
        reply(
            x,
            400,
            "text/xml",
            error("InvalidAction", "The stand-in answers no " + service + " " + action + "."));
      }
    }
  }

  private void eks(HttpExchange x, String region) throws IOException {
    Map<String, String> q = form(String.valueOf(x.getRequestURI().getRawQuery()));
    calls.add("eks:DescribeAddonVersions (" + region + ")");
    String name = q.get("addonName");
    String version = q.get("kubernetesVersion");
    if (!"GET".equals(x.getRequestMethod())
        || !x.getRequestURI().getPath().equals("/addons/supported-versions")
        || name == null
        || version == null) {
      reply(
          x,
          404,
          "application/json",
          "{\"message\":\"The stand-in answers only DescribeAddonVersions by name and version.\"}");
      return;
    }
    reply(
        x,
        200,
        "application/json",
        "{\"addons\":[{\"addonName\":\""
            + name
            + "\",\"type\":\"networking\",\"addonVersions\":[{\"addonVersion\":\""
            + ADDON_VERSION
            + "\",\"architecture\":[\"amd64\",\"arm64\"],\"compatibilities\":[{\"clusterVersion\":\""
            + version
            + "\",\"defaultVersion\":true,\"platformVersions\":[\"*\"]}],"
            + "\"requiresConfiguration\":false}]}]}");
  }

  private static String error(String code, String message) {
    return "<Response><Errors><Error><Code>"
        + code
        + "</Code><Message>"
        + message
        + "</Message></Error></Errors><RequestID>01234567-89ab-cdef-0123-456789abcdef</RequestID>"
        + "</Response>";
  }

  private static Map<String, String> form(String body) {
    Map<String, String> out = new TreeMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static void reply(HttpExchange x, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
