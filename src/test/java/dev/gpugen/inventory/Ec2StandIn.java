package dev.gpugen.inventory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local EC2 for tests: a JDK HTTP server on 127.0.0.1 (ephemeral port) that speaks the EC2 Query
 * API's DescribeInstances the way EC2 does. Form-encoded POST; {@code Filter.N.Name} / {@code
 * Filter.N.Value.M} applied server-side ({@code tag:KEY}, {@code tag-key}, {@code
 * instance-state-name}, {@code instance-id}, {@code instance-type}, {@code availability-zone},
 * {@code instance-lifecycle}; values may use {@code *} and {@code ?}); {@code MaxResults} (5..1000)
 * and an opaque {@code NextToken}; XML in the {@code 2016-11-15} namespace; errors as {@code
 * <Response><Errors><Error>} with EC2's HTTP statuses; DescribeAvailabilityZones lists
 * us-east-1a..f and the instances' zones (or answers 403 when told to). Every request must carry a
 * valid Signature Version 4 of a known key ({@link AwsIdentities}: {@code AuthFailure}, 401, for an
 * unknown key or a wrong session token; {@code SignatureDoesNotMatch} for a wrong signature), and
 * {@code Version=2016-11-15}. Faults can be queued or made permanent: throttling, HTTP 500,
 * garbage, a hang.
 */
public final class Ec2StandIn implements AutoCloseable {
  /** The namespace of the current EC2 API version. */
  public static final String NAMESPACE = "http://ec2.amazonaws.com/doc/2016-11-15/";

  /** The access key id the stand-in accepts by default. */
  public static final String ACCESS_KEY_ID = "AKIDEXAMPLE";

  /** The account every reservation belongs to (DescribeInstances' reservationSet/item/ownerId). */
  public static final String OWNER_ID = "123456789012";

  private static final Pattern FILTER_NAME = Pattern.compile("Filter\\.(\\d+)\\.Name");
  private static final Pattern FILTER_VALUE = Pattern.compile("Filter\\.(\\d+)\\.Value\\.(\\d+)");
  private static final Pattern INSTANCE_ID = Pattern.compile("InstanceId\\.(\\d+)");
  private static final int HANG_LIMIT_SECONDS = 120;

  /** The zones DescribeAvailabilityZones lists besides those of the instances. */
  private static final List<String> ZONES =
      List.of("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e", "us-east-1f");

  /** A fault the stand-in answers with instead of a result. */
  public enum Fault {
    /** 503 {@code RequestLimitExceeded}, as EC2 throttles. */
    THROTTLE,
    /** 500 {@code InternalError}. */
    INTERNAL_ERROR,
    /** 200 with a body that is not XML. */
    GARBAGE,
    /** No answer until the client gives up (bounded by the stand-in at two minutes). */
    HANG,
    /** 401 {@code AuthFailure}, whatever the credentials. */
    AUTH_FAILURE,
    /** An empty page with a new NextToken, every time: a chain that never ends. */
    ENDLESS_PAGES,
    /** 200 and a DescribeInstances body that never ends (until the client hangs up). */
    ENDLESS_BODY
  }

  /** One instance as EC2 would describe it. */
  public record Instance(
      String instanceId,
      String reservationId,
      String instanceType,
      String availabilityZone,
      String state,
      String lifecycle,
      String privateIp,
      String publicIp,
      String privateDns,
      Instant launchTime,
      Map<String, String> tags,
      String imageId,
      String placementGroup) {
    public Instance {
      tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** A running on-demand instance with the given tags and no public IP. */
    public static Instance of(String id, String type, String az, Map<String, String> tags) {
      int n = Math.abs(id.hashCode() % 250) + 1;
      int m = Math.abs(id.hashCode() / 250 % 250) + 1;
      String ip = "10.0." + m + "." + n;
      return new Instance(
          id,
          "r-" + id.substring(2),
          type,
          az,
          "running",
          null,
          ip,
          null,
          "ip-10-0-" + m + "-" + n + ".ec2.internal",
          Instant.parse("2025-01-02T03:04:05Z"),
          tags,
          "ami-0123456789abcdef0",
          null);
    }

    public Instance withState(String newState) {
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          newState,
          lifecycle,
          privateIp,
          publicIp,
          privateDns,
          launchTime,
          tags,
          imageId,
          placementGroup);
    }

    public Instance withLaunchTime(Instant time) {
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          state,
          lifecycle,
          privateIp,
          publicIp,
          privateDns,
          time,
          tags,
          imageId,
          placementGroup);
    }

    public Instance withSpot() {
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          state,
          "spot",
          privateIp,
          publicIp,
          privateDns,
          launchTime,
          tags,
          imageId,
          placementGroup);
    }

    public Instance withPublicIp(String ip) {
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          state,
          lifecycle,
          privateIp,
          ip,
          privateDns,
          launchTime,
          tags,
          imageId,
          placementGroup);
    }

    public Instance withReservation(String id) {
      return new Instance(
          instanceId,
          id,
          instanceType,
          availabilityZone,
          state,
          lifecycle,
          privateIp,
          publicIp,
          privateDns,
          launchTime,
          tags,
          imageId,
          placementGroup);
    }

    public Instance withImage(String ami) {
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          state,
          lifecycle,
          privateIp,
          publicIp,
          privateDns,
          launchTime,
          tags,
          ami,
          placementGroup);
    }

    public Instance withPlacementGroup(String group) {
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          state,
          lifecycle,
          privateIp,
          publicIp,
          privateDns,
          launchTime,
          tags,
          imageId,
          group);
    }

    public Instance withTag(String key, String value) {
      Map<String, String> t = new LinkedHashMap<>(tags);
      t.put(key, value);
      return new Instance(
          instanceId,
          reservationId,
          instanceType,
          availabilityZone,
          state,
          lifecycle,
          privateIp,
          publicIp,
          privateDns,
          launchTime,
          t,
          imageId,
          placementGroup);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final List<Instance> instances = new CopyOnWriteArrayList<>();
  private final Deque<Fault> queued = new ArrayDeque<>();
  private volatile Fault permanent;
  private final AwsIdentities identities = AwsIdentities.withTestUser();
  private volatile int defaultPageSize = 1000;
  private volatile boolean listZones = true;
  private final AtomicInteger requests = new AtomicInteger();
  private final List<Map<String, String>> requestLog = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  /**
   * Rendered pages by query, offset, page size and fleet version: a fleet that does not change is
   * served from memory, so the stand-in's own CPU time barely competes with the client's.
   */
  private final Map<String, byte[]> pages = new java.util.concurrent.ConcurrentHashMap<>();

  private final AtomicInteger version = new AtomicInteger();

  private Ec2StandIn(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts a stand-in on 127.0.0.1 and an ephemeral port. */
  public static Ec2StandIn start() throws IOException {
    return start(0);
  }

  /** Starts a stand-in on 127.0.0.1:{@code port} (0 for an ephemeral one). */
  public static Ec2StandIn start(int port) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    ExecutorService executor =
        Executors.newFixedThreadPool(
            8,
            r -> {
              Thread t = new Thread(r, "ec2-stand-in");
              t.setDaemon(true);
              return t;
            });
    Ec2StandIn standIn = new Ec2StandIn(server, executor);
    server.createContext("/", standIn::handle);
    server.setExecutor(executor);
    server.start();
    return standIn;
  }

  /** {@code http://127.0.0.1:PORT}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public Ec2StandIn add(Instance instance) {
    instances.add(instance);
    version.incrementAndGet();
    return this;
  }

  public Ec2StandIn addAll(List<Instance> more) {
    instances.addAll(more);
    version.incrementAndGet();
    return this;
  }

  /** Answers the next request with {@code fault} (queued faults are served first in, first out). */
  public Ec2StandIn failNext(Fault fault) {
    synchronized (queued) {
      queued.add(fault);
    }
    return this;
  }

  /** Answers every request with {@code fault}; {@code null} to stop. */
  public Ec2StandIn failAlways(Fault fault) {
    this.permanent = fault;
    return this;
  }

  /** Only these access key ids (of those known) authenticate. */
  public Ec2StandIn acceptKeys(String... keyIds) {
    identities.retainOnly(List.of(keyIds));
    return this;
  }

  /** The keys this EC2 accepts; STS and SSO stand-ins add the temporary ones they issue. */
  public AwsIdentities identities() {
    return identities;
  }

  /** Whether DescribeAvailabilityZones is allowed (else 403 {@code UnauthorizedOperation}). */
  public Ec2StandIn listZones(boolean allowed) {
    this.listZones = allowed;
    return this;
  }

  /** The page size when the request has no {@code MaxResults}. */
  public Ec2StandIn defaultPageSize(int size) {
    this.defaultPageSize = size;
    return this;
  }

  /** How many requests reached the stand-in. */
  public int requests() {
    return requests.get();
  }

  /** The form parameters of every request so far. */
  public List<Map<String, String>> requestLog() {
    return List.copyOf(requestLog);
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.incrementAndGet();
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      Map<String, String> form = parseForm(new String(body, StandardCharsets.UTF_8));
      requestLog.add(form);

      Fault fault;
      synchronized (queued) {
        fault = queued.isEmpty() ? permanent : queued.poll();
      }
      if (fault != null) {
        answerFault(exchange, fault);
        return;
      }
      if (!"POST".equals(exchange.getRequestMethod())) {
        error(exchange, 400, "InvalidAction", "The action requires POST in this stand-in.");
        return;
      }
      Object who = identities.verify(exchange, body, "ec2");
      if (who instanceof AwsIdentities.Refusal refusal) {
        error(exchange, refusal.status(), refusal.code(), refusal.message());
        return;
      }
      if (!"2016-11-15".equals(form.get("Version"))) {
        error(exchange, 400, "InvalidParameterValue", "Unsupported API version.");
        return;
      }
      String action = form.getOrDefault("Action", "");
      if (action.equals("DescribeAvailabilityZones")) {
        describeAvailabilityZones(exchange);
        return;
      }
      if (!action.equals("DescribeInstances")) {
        error(
            exchange,
            400,
            "InvalidAction",
            "The action " + action + " is not valid for this web service.");
        return;
      }
      describeInstances(exchange, form);
    } catch (RuntimeException e) {
      // The client sees a broken connection; the test sees the stack trace.
      e.printStackTrace();
      throw e;
    }
  }

  private void describeAvailabilityZones(HttpExchange exchange) throws IOException {
    if (!listZones) {
      error(
          exchange,
          403,
          "UnauthorizedOperation",
          "You are not authorized to perform this operation.");
      return;
    }
    java.util.TreeSet<String> zones = new java.util.TreeSet<>(ZONES);
    for (Instance i : instances) {
      zones.add(i.availabilityZone());
    }
    StringBuilder x = new StringBuilder();
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append("<DescribeAvailabilityZonesResponse xmlns=\"").append(NAMESPACE).append("\">\n");
    x.append("  <requestId>").append(UUID.randomUUID()).append("</requestId>\n");
    x.append("  <availabilityZoneInfo>\n");
    for (String zone : zones) {
      x.append("    <item>\n");
      element(x, 6, "zoneName", zone);
      element(x, 6, "zoneState", "available");
      element(x, 6, "regionName", zone.substring(0, zone.length() - 1));
      element(x, 6, "zoneId", "use1-az" + (zones.headSet(zone).size() + 1));
      element(x, 6, "zoneType", "availability-zone");
      x.append("    </item>\n");
    }
    x.append("  </availabilityZoneInfo>\n");
    x.append("</DescribeAvailabilityZonesResponse>\n");
    send(exchange, 200, x.toString().getBytes(StandardCharsets.UTF_8));
  }

  private void describeInstances(HttpExchange exchange, Map<String, String> form)
      throws IOException {
    Map<String, List<String>> filters = new TreeMap<>();
    Map<String, String> namesByIndex = new TreeMap<>();
    List<String> ids = new ArrayList<>();
    for (Map.Entry<String, String> p : form.entrySet()) {
      Matcher name = FILTER_NAME.matcher(p.getKey());
      if (name.matches()) {
        namesByIndex.put(name.group(1), p.getValue());
      }
      if (INSTANCE_ID.matcher(p.getKey()).matches()) {
        ids.add(p.getValue());
      }
    }
    for (Map.Entry<String, String> n : namesByIndex.entrySet()) {
      List<String> values = new ArrayList<>();
      for (Map.Entry<String, String> p : form.entrySet()) {
        Matcher value = FILTER_VALUE.matcher(p.getKey());
        if (value.matches() && value.group(1).equals(n.getKey())) {
          values.add(p.getValue());
        }
      }
      filters.computeIfAbsent(n.getValue(), k -> new ArrayList<>()).addAll(values);
    }

    List<Predicate<Instance>> tests = new ArrayList<>();
    for (Map.Entry<String, List<String>> f : filters.entrySet()) {
      Optional<Predicate<Instance>> test = filter(f.getKey(), f.getValue());
      if (test.isEmpty()) {
        error(exchange, 400, "InvalidParameterValue", "The filter '" + f.getKey() + "' is invalid");
        return;
      }
      tests.add(test.get());
    }
    if (!ids.isEmpty()) {
      tests.add(i -> ids.contains(i.instanceId()));
    }

    int pageSize = defaultPageSize;
    if (form.containsKey("MaxResults")) {
      if (!ids.isEmpty()) {
        error(
            exchange,
            400,
            "InvalidParameterCombination",
            "The parameter instancesSet cannot be used with the parameter maxResults");
        return;
      }
      try {
        pageSize = Integer.parseInt(form.get("MaxResults"));
      } catch (NumberFormatException e) {
        pageSize = -1;
      }
      if (pageSize < 5 || pageSize > 1000) {
        error(
            exchange,
            400,
            "InvalidParameterValue",
            "Value ( "
                + form.get("MaxResults")
                + " ) for parameter maxResults is invalid."
                + " Expecting a value between 5 and 1000.");
        return;
      }
    }

    String query = filters.toString() + ids;
    int offset = 0;
    String token = form.get("NextToken");
    if (token != null && !token.isEmpty()) {
      Optional<Integer> decoded = decodeToken(token, query);
      if (decoded.isEmpty()) {
        error(exchange, 400, "InvalidParameterValue", "The token '" + token + "' is invalid.");
        return;
      }
      offset = decoded.get();
    }

    String pageKey = version.get() + "|" + query + "|" + offset + "|" + pageSize;
    byte[] cached = pages.get(pageKey);
    if (cached != null) {
      send(exchange, 200, cached);
      return;
    }
    List<Instance> matching = new ArrayList<>();
    for (Instance i : instances) {
      if (tests.stream().allMatch(t -> t.test(i))) {
        matching.add(i);
      }
    }
    int end = Math.min(matching.size(), offset + pageSize);
    List<Instance> page = offset >= matching.size() ? List.of() : matching.subList(offset, end);
    String next = end < matching.size() ? encodeToken(end, query) : null;
    byte[] xml = render(page, next).getBytes(StandardCharsets.UTF_8);
    if (pages.size() > 256) {
      pages.clear();
    }
    pages.put(pageKey, xml);
    send(exchange, 200, xml);
  }

  private static Optional<Predicate<Instance>> filter(String name, List<String> values) {
    List<Pattern> patterns = values.stream().map(Ec2StandIn::glob).toList();
    Predicate<String> any =
        v -> v != null && patterns.stream().anyMatch(p -> p.matcher(v).matches());
    if (name.startsWith("tag:")) {
      String key = name.substring(4);
      return Optional.of(i -> any.test(i.tags().get(key)));
    }
    return switch (name) {
      case "tag-key" -> Optional.of(i -> i.tags().keySet().stream().anyMatch(any));
      case "instance-state-name" -> Optional.of(i -> any.test(i.state()));
      case "instance-id" -> Optional.of(i -> any.test(i.instanceId()));
      case "instance-type" -> Optional.of(i -> any.test(i.instanceType()));
      case "availability-zone" -> Optional.of(i -> any.test(i.availabilityZone()));
      case "instance-lifecycle" -> Optional.of(i -> any.test(i.lifecycle()));
      default -> Optional.empty();
    };
  }

  /** EC2 filter values: {@code *} any run, {@code ?} one character, {@code \} escapes. */
  private static Pattern glob(String value) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        regex.append(Pattern.quote(String.valueOf(value.charAt(++i))));
      } else if (c == '*') {
        regex.append(".*");
      } else if (c == '?') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  private static String encodeToken(int offset, String query) {
    String plain = offset + ":" + Integer.toHexString(query.hashCode());
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  private static Optional<Integer> decodeToken(String token, String query) {
    try {
      String plain = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      int colon = plain.indexOf(':');
      if (colon < 0 || !plain.substring(colon + 1).equals(Integer.toHexString(query.hashCode()))) {
        return Optional.empty();
      }
      return Optional.of(Integer.parseInt(plain.substring(0, colon)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The DescribeInstances response for one page. */
  static String render(List<Instance> page, String nextToken) {
    StringBuilder x = new StringBuilder(1024 + page.size() * 1400);
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append("<DescribeInstancesResponse xmlns=\"").append(NAMESPACE).append("\">\n");
    x.append("  <requestId>").append(UUID.randomUUID()).append("</requestId>\n");
    x.append("  <reservationSet>\n");
    int i = 0;
    while (i < page.size()) {
      String reservation = page.get(i).reservationId();
      x.append("    <item>\n");
      element(x, 6, "reservationId", reservation);
      element(x, 6, "ownerId", OWNER_ID);
      x.append("      <groupSet/>\n");
      x.append("      <instancesSet>\n");
      while (i < page.size() && page.get(i).reservationId().equals(reservation)) {
        instance(x, page.get(i));
        i++;
      }
      x.append("      </instancesSet>\n");
      x.append("    </item>\n");
    }
    x.append("  </reservationSet>\n");
    if (nextToken != null) {
      element(x, 2, "nextToken", nextToken);
    }
    x.append("</DescribeInstancesResponse>\n");
    return x.toString();
  }

  private static void instance(StringBuilder x, Instance i) {
    x.append("        <item>\n");
    element(x, 10, "instanceId", i.instanceId());
    element(x, 10, "imageId", i.imageId());
    x.append("          <instanceState>\n");
    element(x, 12, "code", String.valueOf(stateCode(i.state())));
    element(x, 12, "name", i.state());
    x.append("          </instanceState>\n");
    element(x, 10, "privateDnsName", i.privateDns());
    element(
        x,
        10,
        "dnsName",
        i.publicIp() == null
            ? null
            : "ec2-" + i.publicIp().replace('.', '-') + ".compute-1.amazonaws.com");
    element(x, 10, "amiLaunchIndex", "0");
    element(x, 10, "instanceType", i.instanceType());
    element(x, 10, "launchTime", DateTimeFormatter.ISO_INSTANT.format(i.launchTime()));
    x.append("          <placement>\n");
    element(x, 12, "availabilityZone", i.availabilityZone());
    element(x, 12, "groupName", i.placementGroup());
    element(x, 12, "tenancy", "default");
    x.append("          </placement>\n");
    x.append(
        "          <monitoring>\n            <state>disabled</state>\n          </monitoring>\n");
    element(x, 10, "subnetId", "subnet-0123456789abcdef0");
    element(x, 10, "vpcId", "vpc-0123456789abcdef0");
    element(x, 10, "privateIpAddress", i.privateIp());
    if (i.publicIp() != null) {
      element(x, 10, "ipAddress", i.publicIp());
    }
    x.append("          <groupSet/>\n");
    element(x, 10, "architecture", "x86_64");
    element(x, 10, "rootDeviceType", "ebs");
    element(x, 10, "rootDeviceName", "/dev/sda1");
    if (i.lifecycle() != null) {
      element(x, 10, "instanceLifecycle", i.lifecycle());
      if (i.lifecycle().equals("spot")) {
        element(x, 10, "spotInstanceRequestId", "sir-" + i.instanceId().substring(2, 10));
      }
    }
    element(x, 10, "virtualizationType", "hvm");
    if (i.tags().isEmpty()) {
      x.append("          <tagSet/>\n");
    } else {
      x.append("          <tagSet>\n");
      for (Map.Entry<String, String> tag : i.tags().entrySet()) {
        x.append("            <item>\n");
        element(x, 14, "key", tag.getKey());
        element(x, 14, "value", tag.getValue());
        x.append("            </item>\n");
      }
      x.append("          </tagSet>\n");
    }
    element(x, 10, "hypervisor", "xen");
    element(x, 10, "ebsOptimized", "true");
    x.append("        </item>\n");
  }

  private static int stateCode(String state) {
    return switch (state) {
      case "pending" -> 0;
      case "running" -> 16;
      case "shutting-down" -> 32;
      case "terminated" -> 48;
      case "stopping" -> 64;
      case "stopped" -> 80;
      default -> 16;
    };
  }

  private static void element(StringBuilder x, int indent, String name, String value) {
    x.append(" ".repeat(indent));
    if (value == null || value.isEmpty()) {
      x.append('<').append(name).append("/>\n");
      return;
    }
    x.append('<').append(name).append('>');
    escape(x, value);
    x.append("</").append(name).append(">\n");
  }

  private static void escape(StringBuilder x, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '&' -> x.append("&amp;");
        case '<' -> x.append("&lt;");
        case '>' -> x.append("&gt;");
        case '"' -> x.append("&quot;");
        case '\'' -> x.append("&apos;");
        default -> x.append(c);
      }
    }
  }

  private void answerFault(HttpExchange exchange, Fault fault) throws IOException {
    switch (fault) {
      case THROTTLE -> error(exchange, 503, "RequestLimitExceeded", "Request limit exceeded.");
      case INTERNAL_ERROR ->
          error(
              exchange,
              500,
              "InternalError",
              "An internal error has occurred. Retry your request, but if the problem persists,"
                  + " contact us with details by posting a message on AWS re:Post.");
      case GARBAGE ->
          send(exchange, 200, "<html><body>captive portal".getBytes(StandardCharsets.UTF_8));
      case AUTH_FAILURE ->
          error(
              exchange,
              401,
              "AuthFailure",
              "AWS was not able to validate the provided access credentials");
      case ENDLESS_PAGES ->
          send(
              exchange,
              200,
              render(List.of(), UUID.randomUUID().toString()).getBytes(StandardCharsets.UTF_8));
      case ENDLESS_BODY -> {
        exchange.getResponseHeaders().set("Content-Type", "text/xml;charset=UTF-8");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(
              ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeInstancesResponse xmlns=\""
                      + NAMESPACE
                      + "\">\n<requestId>")
                  .getBytes(StandardCharsets.UTF_8));
          byte[] chunk = "x".repeat(1 << 16).getBytes(StandardCharsets.UTF_8);
          for (long sent = 0; sent < (4L << 30) && closed.getCount() > 0; sent += chunk.length) {
            out.write(chunk);
          }
        } catch (IOException e) {
          // The client hung up: what it should do.
        }
      }
      case HANG -> {
        try {
          closed.await(HANG_LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    StringBuilder x = new StringBuilder();
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>");
    escape(x, code);
    x.append("</Code><Message>");
    escape(x, message);
    x.append("</Message></Error></Errors><RequestID>")
        .append(UUID.randomUUID())
        .append("</RequestID></Response>\n");
    send(exchange, status, x.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/xml;charset=UTF-8");
    exchange
        .getResponseHeaders()
        .set(
            "Date",
            DateTimeFormatter.RFC_1123_DATE_TIME.format(
                java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)));
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static Map<String, String> parseForm(String body) {
    Map<String, String> form = new LinkedHashMap<>();
    if (body.isEmpty()) {
      return form;
    }
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      form.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return form;
  }
}
