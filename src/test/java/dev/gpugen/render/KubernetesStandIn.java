package dev.gpugen.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local Kubernetes API for tests: a JDK HTTP server on 127.0.0.1 (ephemeral port, plain HTTP,
 * bearer-token checked) that speaks enough of the API for kubernetes.core's dynamic client:
 * discovery ({@code /version}, {@code /api}, {@code /api/v1}, {@code /apis}, {@code
 * /apis/GROUP/VERSION}), then GET (one object or a list, with {@code labelSelector}), POST, PATCH
 * (merge patches) and DELETE on nodes, configmaps, pods (and their log), deployments, daemonsets,
 * jobs and the GPU Operator's ClusterPolicy. A created Job completes at once: the stand-in adds its
 * selector, a Succeeded pod, and the Complete condition; the pod's containers log what nvidia-smi,
 * dcgmi and nccl-tests would print on a pool's node ({@link #busBandwidth}), so the plays' parsing
 * runs on realistic text.
 */
final class KubernetesStandIn implements AutoCloseable {
  /** The bearer token the stand-in accepts; anything else gets 401. */
  static final String TOKEN = "gpugen-test-token";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One kind of resource the stand-in serves. */
  private record Kind(
      String group, String version, String plural, String kind, boolean namespaced) {
    String groupVersion() {
      return group.isEmpty() ? version : group + "/" + version;
    }
  }

  private static final List<Kind> KINDS =
      List.of(
          new Kind("", "v1", "nodes", "Node", false),
          new Kind("", "v1", "namespaces", "Namespace", false),
          new Kind("", "v1", "configmaps", "ConfigMap", true),
          new Kind("", "v1", "pods", "Pod", true),
          new Kind("", "v1", "services", "Service", true),
          new Kind("apps", "v1", "deployments", "Deployment", true),
          new Kind("apps", "v1", "daemonsets", "DaemonSet", true),
          new Kind("batch", "v1", "jobs", "Job", true),
          new Kind("nvidia.com", "v1", "clusterpolicies", "ClusterPolicy", false));

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final AtomicInteger podSuffix = new AtomicInteger();

  /** Objects by kind plural, then "namespace/name" ("/name" when cluster-scoped). */
  private final Map<String, Map<String, ObjectNode>> objects = new ConcurrentHashMap<>();

  /** Every Job the clients created, as posted. */
  final List<JsonNode> createdJobs = new CopyOnWriteArrayList<>();

  /** Every request line served ("GET /api/v1/nodes"), for tests that check what was called. */
  final List<String> requests = new CopyOnWriteArrayList<>();

  /** The all_reduce_perf bus bandwidth (GB/s) the pods of a Job report, per node pool. */
  final Map<String, String> busBandwidth = new ConcurrentHashMap<>();

  /**
   * Whether created Jobs complete (else they stay active for ever, as a Job whose pod cannot be
   * scheduled or pulled does).
   */
  volatile boolean completeJobs = true;

  /** An action run once, before the {@code times}-th serving of {@code request} is answered. */
  private record Trigger(String request, int times, Runnable action) {}

  private final List<Trigger> triggers = new CopyOnWriteArrayList<>();

  /**
   * Runs {@code action} once, just before the {@code times}-th request {@code request} ("GET
   * /api/v1/nodes/NAME") is answered: a node that turns Ready while a client polls.
   */
  void before(String request, int times, Runnable action) {
    triggers.add(new Trigger(request, times, action));
  }

  /**
   * Why the RDMA shared device plugin's pods would not start on the ConfigMap the stand-in held at
   * the last pod that requested rdma/...; empty when they would.
   */
  volatile List<String> rdmaPluginProblems = List.of();

  /** What {@code /version} reports: the API server's major, minor and gitVersion. */
  volatile String[] version = {"1", "31", "v1.31.6-gke.1020000"};

  /**
   * Another client's write, run once right after the stand-in serves a GET of the named object (by
   * {@code kind plural + "/" + name}, e.g. {@code nodes/gpu-1}): what happens when a controller
   * changes a node between a client's read and its write.
   */
  final Map<String, java.util.function.Consumer<ObjectNode>> afterNextRead =
      new ConcurrentHashMap<>();

  /**
   * The bus bandwidth (GB/s) rank 0 of a pool's all-reduce across nodes reports (an Indexed Job,
   * play 05's multinode.yml), per node pool.
   */
  final Map<String, String> multiNodeBandwidth = new ConcurrentHashMap<>();

  /** Pools whose multi-node all-reduce fails in rank 1 (an NCCL error), as a broken NIC does. */
  final Set<String> multiNodeNcclError = ConcurrentHashMap.newKeySet();

  /** The final condition (Complete or Failed) of each all-reduce Job, by Job name. */
  final Map<String, String> jobOutcome = new ConcurrentHashMap<>();

  /** The GPUs nvidia-smi lists in the pods of a Job, per node pool. */
  final Map<String, Integer> gpusSeen = new ConcurrentHashMap<>();

  KubernetesStandIn() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** {@code http://127.0.0.1:PORT}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Writes a kubeconfig whose context {@code context} points at this stand-in. */
  Path writeKubeconfig(Path file, String context) throws IOException {
    String yaml =
        "apiVersion: v1\n"
            + "kind: Config\n"
            + "clusters:\n"
            + "  - name: stand-in\n"
            + "    cluster:\n"
            + "      server: "
            + url()
            + "\n"
            + "users:\n"
            + "  - name: stand-in\n"
            + "    user:\n"
            + "      token: "
            + TOKEN
            + "\n"
            + "contexts:\n"
            + "  - name: "
            + JSON.writeValueAsString(context)
            + "\n"
            + "    context:\n"
            + "      cluster: stand-in\n"
            + "      user: stand-in\n"
            + "current-context: "
            + JSON.writeValueAsString(context)
            + "\n";
    return Files.writeString(file, yaml);
  }

  /** Adds or replaces an object; its kind comes from its {@code kind} field. */
  void put(ObjectNode object) {
    Kind kind = kindOf(object.path("kind").asText()).orElseThrow();
    ObjectNode meta = obj(object, "metadata");
    meta.put("generation", meta.path("generation").asInt(1));
    meta.put("uid", meta.path("uid").asText(UUID.randomUUID().toString()));
    meta.put("resourceVersion", "1");
    object.put("apiVersion", kind.groupVersion());
    objects
        .computeIfAbsent(kind.plural(), k -> new ConcurrentHashMap<>())
        .put(key(kind, object), object);
  }

  /** Removes an object (as {@link #all} or {@link #get} returned it). */
  void remove(ObjectNode object) {
    Kind kind = kindOf(object.path("kind").asText()).orElseThrow();
    objects.getOrDefault(kind.plural(), Map.of()).remove(key(kind, object));
  }

  /** An object as the stand-in holds it now, if any. */
  Optional<ObjectNode> get(String kind, String namespace, String name) {
    Kind k = kindOf(kind).orElseThrow();
    return Optional.ofNullable(
        objects
            .getOrDefault(k.plural(), Map.of())
            .get((k.namespaced() ? namespace : "") + "/" + name));
  }

  /** The objects of one kind, sorted by key. */
  List<ObjectNode> all(String kind) {
    Kind k = kindOf(kind).orElseThrow();
    return new ArrayList<>(new TreeMap<>(objects.getOrDefault(k.plural(), Map.of())).values());
  }

  private static Optional<Kind> kindOf(String kind) {
    return KINDS.stream().filter(k -> k.kind().equals(kind)).findFirst();
  }

  private static String key(Kind kind, JsonNode object) {
    JsonNode meta = object.path("metadata");
    return (kind.namespaced() ? meta.path("namespace").asText("default") : "")
        + "/"
        + meta.path("name").asText();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // --- HTTP -------------------------------------------------------------------------------------

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getPath();
      Map<String, String> query = query(ex.getRequestURI().getRawQuery());
      String line = method + " " + path;
      requests.add(line);
      long served = requests.stream().filter(line::equals).count();
      for (Trigger t : triggers) {
        if (t.request().equals(line) && t.times() == served) {
          t.action().run();
        }
      }
      if (!("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
        status(ex, 401, "Unauthorized", "no or wrong bearer token");
        return;
      }
      byte[] body = ex.getRequestBody().readAllBytes();
      if (method.equals("GET") && discovery(ex, path)) {
        return;
      }
      route(ex, method, path, query, body);
    } catch (RuntimeException e) {
      status(ex, 500, "InternalError", String.valueOf(e));
    }
  }

  private boolean discovery(HttpExchange ex, String path) throws IOException {
    switch (path) {
      case "/version" -> {
        ObjectNode v = JSON.createObjectNode();
        String[] served = version;
        v.put("major", served[0]);
        v.put("minor", served[1]);
        v.put("gitVersion", served[2]);
        v.put("platform", "linux/amd64");
        send(ex, 200, v);
        return true;
      }
      case "/api" -> {
        ObjectNode v = JSON.createObjectNode();
        v.put("kind", "APIVersions");
        v.putArray("versions").add("v1");
        ObjectNode cidr = v.putArray("serverAddressByClientCIDRs").addObject();
        cidr.put("clientCIDR", "0.0.0.0/0");
        cidr.put("serverAddress", "127.0.0.1");
        send(ex, 200, v);
        return true;
      }
      case "/apis" -> {
        ObjectNode list = JSON.createObjectNode();
        list.put("kind", "APIGroupList");
        list.put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        KINDS.stream()
            .filter(k -> !k.group().isEmpty())
            .map(k -> List.of(k.group(), k.version()))
            .distinct()
            .forEach(
                gv -> {
                  ObjectNode g = groups.addObject();
                  g.put("name", gv.get(0));
                  ObjectNode version = JSON.createObjectNode();
                  version.put("groupVersion", gv.get(0) + "/" + gv.get(1));
                  version.put("version", gv.get(1));
                  g.putArray("versions").add(version);
                  g.set("preferredVersion", version);
                });
        send(ex, 200, list);
        return true;
      }
      default -> {
        String gv =
            path.equals("/api/v1")
                ? "v1"
                : path.startsWith("/apis/") && path.split("/").length == 4
                    ? path.substring("/apis/".length())
                    : null;
        if (gv == null) {
          return false;
        }
        List<Kind> kinds = KINDS.stream().filter(k -> k.groupVersion().equals(gv)).toList();
        if (kinds.isEmpty()) {
          status(ex, 404, "NotFound", "the server could not find the requested resource");
          return true;
        }
        ObjectNode list = JSON.createObjectNode();
        list.put("kind", "APIResourceList");
        list.put("apiVersion", "v1");
        list.put("groupVersion", gv);
        ArrayNode resources = list.putArray("resources");
        for (Kind k : kinds) {
          resource(resources, k.plural(), k);
          if (k.plural().equals("pods")) {
            resource(resources, "pods/log", k);
          }
        }
        send(ex, 200, list);
        return true;
      }
    }
  }

  private static void resource(ArrayNode resources, String name, Kind k) {
    ObjectNode r = resources.addObject();
    r.put("name", name);
    r.put("singularName", name.contains("/") ? "" : k.kind().toLowerCase(java.util.Locale.ROOT));
    r.put("namespaced", k.namespaced());
    r.put("kind", k.kind());
    ArrayNode verbs = r.putArray("verbs");
    for (String verb :
        name.contains("/")
            ? List.of("get")
            : List.of("create", "delete", "get", "list", "patch", "update", "watch")) {
      verbs.add(verb);
    }
  }

  /** /api/v1/[namespaces/NS/]PLURAL[/NAME[/log]] and /apis/G/V/[namespaces/NS/]PLURAL[/NAME]. */
  private void route(
      HttpExchange ex, String method, String path, Map<String, String> query, byte[] body)
      throws IOException {
    List<String> parts = new ArrayList<>(List.of(path.substring(1).split("/")));
    String gv;
    if (parts.size() >= 3 && parts.get(0).equals("api")) {
      gv = parts.get(1);
      parts = parts.subList(2, parts.size());
    } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
      gv = parts.get(1) + "/" + parts.get(2);
      parts = parts.subList(3, parts.size());
    } else {
      status(ex, 404, "NotFound", "the server could not find the requested resource");
      return;
    }
    String namespace = "";
    if (parts.size() >= 3 && parts.get(0).equals("namespaces")) {
      namespace = parts.get(1);
      parts = parts.subList(2, parts.size());
    }
    String plural = parts.get(0);
    Optional<Kind> kind =
        KINDS.stream()
            .filter(k -> k.groupVersion().equals(gv) && k.plural().equals(plural))
            .findFirst();
    if (kind.isEmpty()) {
      status(ex, 404, "NotFound", "the server could not find the requested resource");
      return;
    }
    Kind k = kind.get();
    Map<String, ObjectNode> store =
        objects.computeIfAbsent(k.plural(), x -> new ConcurrentHashMap<>());
    String ns = namespace;
    if (parts.size() == 1) {
      switch (method) {
        case "GET" -> send(ex, 200, list(k, ns, query.getOrDefault("labelSelector", "")));
        case "POST" -> create(ex, k, ns, (ObjectNode) JSON.readTree(body));
        default -> status(ex, 405, "MethodNotAllowed", method + " on a collection");
      }
      return;
    }
    String name = parts.get(1);
    String id = (k.namespaced() ? ns : "") + "/" + name;
    ObjectNode object = store.get(id);
    if (object == null) {
      status(ex, 404, "NotFound", k.plural() + " \"" + name + "\" not found");
      return;
    }
    if (parts.size() == 3 && parts.get(2).equals("log") && k.plural().equals("pods")) {
      String container = query.getOrDefault("container", "");
      byte[] log =
          object.path("gpugenLogs").path(container).asText("").getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "text/plain");
      ex.sendResponseHeaders(200, log.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(log);
      }
      return;
    }
    switch (method) {
      case "GET" -> {
        send(ex, 200, visible(object));
        var racer = afterNextRead.remove(k.plural() + "/" + name);
        if (racer != null) {
          ObjectNode changed = object.deepCopy();
          racer.accept(changed);
          ObjectNode meta = obj(changed, "metadata");
          meta.put("resourceVersion", String.valueOf(meta.path("resourceVersion").asInt(1) + 1));
          store.put(id, changed);
        }
      }
      case "PATCH" -> patch(ex, k, name, id, object, store, body);
      case "DELETE" -> {
        store.remove(id);
        if (k.plural().equals("jobs")) {
          String uid = object.path("metadata").path("uid").asText();
          objects
              .getOrDefault("pods", Map.of())
              .values()
              .removeIf(
                  p ->
                      p.path("metadata")
                          .path("labels")
                          .path("controller-uid")
                          .asText()
                          .equals(uid));
        }
        send(ex, 200, visible(object));
      }
      default -> status(ex, 405, "MethodNotAllowed", method);
    }
  }

  /**
   * PATCH as the API server does it (k8s.io/apiserver pkg/endpoints/handlers/patch.go): the
   * Content-Type picks the patch format; JSON merge patch (RFC 7386) and JSON patch (RFC 6902) on
   * every kind, strategic merge patch on built-in kinds only (a custom resource answers 415); a
   * patch that carries metadata.resourceVersion applies only to that version (409 Conflict
   * otherwise); the result is validated as the API validates a Node (422 Invalid); an unchanged
   * object keeps its resourceVersion. A strategic patch with a directive ($patch, $retainKeys) or a
   * list whose field has a merge strategy is not implemented here: 500, so a test that relies on it
   * fails instead of passing on merge-patch semantics.
   */
  private void patch(
      HttpExchange ex,
      Kind k,
      String name,
      String id,
      ObjectNode object,
      Map<String, ObjectNode> store,
      byte[] body)
      throws IOException {
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    String media = type == null ? "" : type.split(";")[0].trim();
    JsonNode patch;
    try {
      patch = JSON.readTree(body);
    } catch (IOException e) {
      status(ex, 400, "BadRequest", "error decoding patch: " + e.getMessage());
      return;
    }
    ObjectNode patched = object.deepCopy();
    switch (media) {
      case "application/merge-patch+json" -> {
        if (!(patch instanceof ObjectNode)) {
          status(ex, 400, "BadRequest", "a merge patch must be a JSON object");
          return;
        }
        mergePatch(patched, patch);
      }
      case "application/strategic-merge-patch+json" -> {
        if (!k.group().isEmpty() && !k.group().equals("apps") && !k.group().equals("batch")) {
          status(
              ex,
              415,
              "UnsupportedMediaType",
              "the body of the request was in an unknown format - accepted media types include:"
                  + " application/json-patch+json, application/merge-patch+json,"
                  + " application/apply-patch+yaml");
          return;
        }
        String unsupported = strategicUnsupported(patch, "");
        if (unsupported != null) {
          status(ex, 500, "InternalError", "stand-in: strategic merge patch of " + unsupported);
          return;
        }
        mergePatch(patched, patch);
      }
      case "application/json-patch+json" -> {
        String error = jsonPatch(patched, patch);
        if (error != null) {
          status(ex, 422, "Invalid", error);
          return;
        }
      }
      default -> {
        status(ex, 415, "UnsupportedMediaType", "unsupported patch type " + type);
        return;
      }
    }
    String wanted = patched.path("metadata").path("resourceVersion").asText("");
    String current = object.path("metadata").path("resourceVersion").asText("");
    if (!wanted.isEmpty() && !wanted.equals(current)) {
      status(
          ex,
          409,
          "Conflict",
          "Operation cannot be fulfilled on "
              + k.plural()
              + " \""
              + name
              + "\": the object has been modified; please apply your changes to the latest"
              + " version and try again");
      return;
    }
    obj(patched, "metadata").put("resourceVersion", current);
    if (k.plural().equals("nodes")) {
      String invalid = NodeValidation.problem(patched);
      if (invalid != null) {
        status(ex, 422, "Invalid", "Node \"" + name + "\" is invalid: " + invalid);
        return;
      }
    }
    if (!patched.equals(object)) {
      ObjectNode meta = obj(patched, "metadata");
      meta.put("resourceVersion", String.valueOf(meta.path("resourceVersion").asInt(1) + 1));
      store.put(id, patched);
    }
    send(ex, 200, visible(patched));
  }

  /** Lists that have a patch strategy in the Kubernetes types (patchStrategy:"merge"). */
  private static final java.util.Set<String> MERGE_LISTS =
      java.util.Set.of(
          "/status/conditions",
          "/status/addresses",
          "/status/images",
          "/metadata/finalizers",
          "/metadata/ownerReferences",
          "/spec/template/spec/containers",
          "/spec/template/spec/volumes",
          "/spec/containers",
          "/spec/volumes",
          "/spec/tolerations");

  /** Where a strategic patch needs more than merge-patch semantics, or null. */
  private static String strategicUnsupported(JsonNode patch, String path) {
    if (patch.isObject()) {
      for (java.util.Map.Entry<String, JsonNode> e : patch.properties()) {
        if (e.getKey().startsWith("$")) {
          return "directive " + e.getKey() + " at " + (path.isEmpty() ? "/" : path);
        }
        String p = path + "/" + e.getKey();
        if (e.getValue().isArray() && MERGE_LISTS.contains(p)) {
          return "list " + p + " (patchStrategy merge)";
        }
        String deeper = strategicUnsupported(e.getValue(), p);
        if (deeper != null) {
          return deeper;
        }
      }
    }
    return null;
  }

  /** RFC 6902 add, remove, replace and test on {@code target}; the error, or null. */
  private static String jsonPatch(ObjectNode target, JsonNode patch) {
    if (!patch.isArray()) {
      return "a JSON patch must be an array of operations";
    }
    for (JsonNode op : patch) {
      String kind = op.path("op").asText();
      String ptr = op.path("path").asText();
      List<String> parts = new ArrayList<>();
      for (String seg : ptr.substring(Math.min(1, ptr.length())).split("/", -1)) {
        parts.add(seg.replace("~1", "/").replace("~0", "~"));
      }
      if (!ptr.startsWith("/")) {
        return "the path \"" + ptr + "\" is not a JSON pointer";
      }
      JsonNode parent = target;
      for (int i = 0; i < parts.size() - 1; i++) {
        parent =
            parent.isArray()
                ? parent.path(Integer.parseInt(parts.get(i)))
                : parent.path(parts.get(i));
      }
      String last = parts.get(parts.size() - 1);
      switch (kind) {
        case "test" -> {
          JsonNode at = parent.isArray() ? parent.path(Integer.parseInt(last)) : parent.path(last);
          if (!at.equals(op.path("value"))) {
            return "the test of " + ptr + " failed";
          }
        }
        case "remove", "replace" -> {
          if (parent instanceof ObjectNode o && o.has(last)) {
            if (kind.equals("remove")) {
              o.remove(last);
            } else {
              o.set(last, op.path("value").deepCopy());
            }
          } else if (parent instanceof ArrayNode a
              && last.matches("[0-9]+")
              && Integer.parseInt(last) < a.size()) {
            if (kind.equals("remove")) {
              a.remove(Integer.parseInt(last));
            } else {
              a.set(Integer.parseInt(last), op.path("value").deepCopy());
            }
          } else {
            return "unable to " + kind + " nonexistent key " + ptr;
          }
        }
        case "add" -> {
          if (parent instanceof ObjectNode o) {
            o.set(last, op.path("value").deepCopy());
          } else if (parent instanceof ArrayNode a) {
            if (last.equals("-")) {
              a.add(op.path("value").deepCopy());
            } else {
              a.insert(Integer.parseInt(last), op.path("value").deepCopy());
            }
          } else {
            return "the parent of " + ptr + " does not exist";
          }
        }
        default -> throw new UnsupportedOperationException("stand-in: JSON patch op " + kind);
      }
    }
    return null;
  }

  private ObjectNode list(Kind k, String namespace, String selector) {
    ObjectNode list = JSON.createObjectNode();
    list.put("kind", k.kind() + "List");
    list.put("apiVersion", k.groupVersion());
    list.putObject("metadata").put("resourceVersion", "1");
    ArrayNode items = list.putArray("items");
    new TreeMap<>(objects.getOrDefault(k.plural(), Map.of()))
        .forEach(
            (id, o) -> {
              if ((namespace.isEmpty() || id.startsWith(namespace + "/"))
                  && matches(o.path("metadata").path("labels"), selector)) {
                items.add(visible(o));
              }
            });
    return list;
  }

  /** Label selectors: k=v, k==v, k!=v, k (exists), !k (absent), comma-separated (AND). */
  static boolean matches(JsonNode labels, String selector) {
    for (String term : selector.split(",")) {
      String t = term.trim();
      if (t.isEmpty()) {
        continue;
      }
      boolean ok;
      if (t.contains("!=")) {
        String[] kv = t.split("!=", 2);
        ok = !labels.path(kv[0].trim()).asText("\u0000").equals(kv[1].trim());
      } else if (t.contains("=")) {
        String[] kv = t.split("==?", 2);
        ok = labels.has(kv[0].trim()) && labels.path(kv[0].trim()).asText().equals(kv[1].trim());
      } else if (t.startsWith("!")) {
        ok = !labels.has(t.substring(1).trim());
      } else {
        ok = labels.has(t);
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** A created Job completes at once, with a Succeeded pod whose containers logged the checks. */
  private void create(HttpExchange ex, Kind k, String namespace, ObjectNode object)
      throws IOException {
    ObjectNode meta = obj(object, "metadata");
    meta.put("namespace", k.namespaced() ? namespace : null);
    if (!k.namespaced()) {
      meta.remove("namespace");
    }
    String id = key(k, object);
    if (objects.computeIfAbsent(k.plural(), x -> new ConcurrentHashMap<>()).containsKey(id)) {
      status(
          ex,
          409,
          "AlreadyExists",
          k.plural() + " \"" + meta.path("name").asText() + "\" already exists");
      return;
    }
    if (k.plural().equals("jobs")
        && object.path("spec").path("completionMode").asText().equals("Indexed")) {
      createdJobs.add(object.deepCopy());
      indexedJob(object, namespace);
      put(object);
      send(ex, 201, visible(object));
      return;
    }
    if (k.plural().equals("jobs")) {
      createdJobs.add(object.deepCopy());
      String uid = UUID.randomUUID().toString();
      meta.put("uid", uid);
      obj(obj(obj(object, "spec"), "selector"), "matchLabels").put("controller-uid", uid);
      String pool =
          object
              .path("spec")
              .path("template")
              .path("spec")
              .path("nodeSelector")
              .path("cloud.google.com/gke-nodepool")
              .asText();
      ObjectNode pod = JSON.createObjectNode();
      pod.put("kind", "Pod");
      ObjectNode podMeta = pod.putObject("metadata");
      podMeta.put(
          "name",
          meta.path("name").asText() + "-" + String.format("%05d", podSuffix.incrementAndGet()));
      podMeta.put("namespace", namespace);
      podMeta
          .putObject("labels")
          .put("controller-uid", uid)
          .put("job-name", meta.path("name").asText());
      pod.putObject("status").put("phase", "Succeeded");
      ObjectNode logs = pod.putObject("gpugenLogs");
      logs.put("gpu-diag", diagLog(gpusSeen.getOrDefault(pool, 8)));
      logs.put(
          "nccl",
          ncclLog(busBandwidth.getOrDefault(pool, "400.00"), gpusSeen.getOrDefault(pool, 8)));
      put(pod);
      ObjectNode status = object.putObject("status");
      if (!completeJobs) {
        status.put("active", 1);
        obj(pod, "status").put("phase", "Pending");
        put(object);
        send(ex, 201, visible(object));
        return;
      }
      status.put("succeeded", 1);
      ObjectNode complete = status.putArray("conditions").addObject();
      complete.put("type", "Complete");
      complete.put("status", "True");
    }
    if (k.plural().equals("pods")) {
      rdmaPod(object);
    }
    put(object);
    send(ex, 201, visible(object));
  }

  /**
   * An Indexed Job (batch/v1 completionMode Indexed): one Succeeded pod per completion index,
   * labelled batch.kubernetes.io/job-completion-index as the Job controller labels them. The pods
   * find rank 0 only through a headless Service (clusterIP None) named after the pods' subdomain
   * whose selector picks the Job's pods (its job-name label), as cluster DNS gives pod names only
   * then; without it, every rank's torchrun fails its rendezvous. Rank 0 logs the bus bandwidth of
   * {@link #multiNodeBandwidth}.
   */
  private void indexedJob(ObjectNode job, String namespace) {
    ObjectNode meta = obj(job, "metadata");
    String name = meta.path("name").asText();
    String uid = UUID.randomUUID().toString();
    meta.put("uid", uid);
    obj(obj(obj(job, "spec"), "selector"), "matchLabels").put("controller-uid", uid);
    JsonNode podSpec = job.path("spec").path("template").path("spec");
    String pool = podSpec.path("nodeSelector").path("cloud.google.com/gke-nodepool").asText();
    int completions = job.path("spec").path("completions").asInt(0);
    if (completions < 1 || job.path("spec").path("parallelism").asInt(1) != completions) {
      throw new IllegalArgumentException(
          "an all-reduce Job needs completions = parallelism >= 1: " + job.path("spec"));
    }
    JsonNode service =
        objects
            .getOrDefault("services", Map.of())
            .get(namespace + "/" + podSpec.path("subdomain").asText());
    boolean dns =
        service != null
            && service.path("spec").path("clusterIP").asText().equals("None")
            && service.path("spec").path("selector").path("job-name").asText().equals(name);
    int gpus = gpusSeen.getOrDefault(pool, 8);
    JsonNode container = podSpec.path("containers").path(0);
    String bytes = "";
    for (JsonNode env : container.path("env")) {
      if (env.path("name").asText().equals("GPUGEN_BYTES")) {
        bytes = env.path("value").asText();
      }
    }
    // The script does int(os.environ["GPUGEN_BYTES"]): Python's int() takes digits only, so an
    // nccl-tests size such as 8G raises ValueError in every rank.
    boolean bytesOk = bytes.matches("[0-9]+");
    // sh -c exits with its last command's status: the pod fails only if the script ends with
    // exit "$rc" (torchrun's status), not with the echo that prints it.
    String script = container.path("command").path(2).asText().strip();
    boolean exitPropagates = script.endsWith("exit \"$rc\"");
    boolean failed = false;
    for (int i = 0; i < completions; i++) {
      ObjectNode pod = JSON.createObjectNode();
      pod.put("kind", "Pod");
      ObjectNode podMeta = pod.putObject("metadata");
      podMeta.put(
          "name", name + "-" + i + "-" + String.format("%05d", podSuffix.incrementAndGet()));
      podMeta.put("namespace", namespace);
      podMeta
          .putObject("labels")
          .put("controller-uid", uid)
          .put("job-name", name)
          .put("batch.kubernetes.io/job-completion-index", Integer.toString(i));
      String log;
      if (!bytesOk) {
        log =
            "ValueError: invalid literal for int() with base 10: '"
                + bytes
                + "'\ngpugen: torchrun exit 1\n";
      } else if (!dns) {
        log =
            "torch.distributed.DistNetworkError: failed to resolve "
                + name
                + "-0\ngpugen: torchrun exit 1\n";
      } else if (i == 1 && multiNodeNcclError.contains(pool)) {
        log =
            "torch.distributed.DistBackendError: NCCL error: remote process exited\n"
                + "gpugen: torchrun exit 1\n";
      } else if (i == 0) {
        log =
            "gpugen: multi-node busbw "
                + multiNodeBandwidth.getOrDefault(pool, "42.00")
                + " GB/s at 8589934592 B over "
                + completions * gpus
                + " ranks\ngpugen: torchrun exit 0\n";
      } else {
        log = "gpugen: torchrun exit 0\n";
      }
      boolean podFailed = exitPropagates && !log.endsWith("torchrun exit 0\n");
      failed |= podFailed;
      pod.putObject("status").put("phase", podFailed ? "Failed" : "Succeeded");
      pod.putObject("gpugenLogs").put("allreduce", log);
      put(pod);
    }
    // backoffLimit 0: one failed pod fails the Job (batch/v1 JobStatus conditions).
    ObjectNode status = job.putObject("status");
    status.put(failed ? "failed" : "succeeded", completions);
    ObjectNode condition = status.putArray("conditions").addObject();
    condition.put("type", failed ? "Failed" : "Complete");
    jobOutcome.put(name, failed ? "Failed" : "Complete");
    condition.put("status", "True");
  }

  /**
   * A pod that requests an RDMA device plugin's resource (rdma/...): without the RDMA shared device
   * plugin's DaemonSet (kube-system/rdma-shared-dp-ds) no node advertises the resource, so the
   * scheduler leaves it Pending ("Insufficient rdma/..."). The same when the plugin's ConfigMap
   * (kube-system/rdma-devices, config.json) is one the plugin refuses
   * (RdmaSharedDevicePluginConfig: it exits, its pods crash-loop); {@link #rdmaPluginProblems} says
   * why. With both, the pod runs and its container logs what all_reduce_perf prints with NCCL's
   * INFO lines: over IB with GPUDirect RDMA when the pod has the IPC_LOCK capability (memory
   * registration), else over sockets.
   */
  private void rdmaPod(ObjectNode pod) {
    JsonNode container = pod.path("spec").path("containers").path(0);
    List<String> limits = new ArrayList<>();
    container.path("resources").path("limits").fieldNames().forEachRemaining(limits::add);
    if (limits.stream().noneMatch(r -> r.startsWith("rdma/"))) {
      return;
    }
    boolean daemonSet =
        objects.getOrDefault("daemonsets", Map.of()).containsKey("kube-system/rdma-shared-dp-ds");
    JsonNode config = objects.getOrDefault("configmaps", Map.of()).get("kube-system/rdma-devices");
    rdmaPluginProblems =
        config == null
            ? List.of("no ConfigMap kube-system/rdma-devices")
            : RdmaSharedDevicePluginConfig.problems(
                config.path("data").path("config.json").asText(""));
    boolean plugin = daemonSet && rdmaPluginProblems.isEmpty();
    boolean ipcLock = false;
    for (JsonNode cap : container.path("securityContext").path("capabilities").path("add")) {
      ipcLock |= cap.asText().equals("IPC_LOCK");
    }
    obj(pod, "status").put("phase", plugin ? "Succeeded" : "Pending");
    if (plugin) {
      String g = ipcLock ? "/GDRDMA" : "";
      String log =
          "mlx5_0 mlx5_1 rdma_cm uverbs0 uverbs1\n"
              + "# nThread 1 nGpus 2 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5\n"
              + (ipcLock
                  ? "pod:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.244.1.7<0>\n"
                      + "pod:1:1 [0] NCCL INFO Using network IB\n"
                      + "pod:1:9 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0"
                      + g
                      + "\n"
                      + "pod:1:9 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [receive] via NET/IB/1"
                      + g
                      + "\n"
                  : "pod:1:1 [0] NCCL INFO NET/IB : No device found.\n"
                      + "pod:1:1 [0] NCCL INFO Using network Socket\n")
              + "  1073741824     268435456     float     sum      -1    21930   48.96   48.96      0"
              + "    21911   49.00   49.00      0\n"
              + "gpugen: all_reduce_perf exit 0\n";
      obj(pod, "gpugenLogs").put(container.path("name").asText(), log);
    }
  }

  /** What nvidia-smi -L and dcgmi diag print on a healthy node, then the command's exit lines. */
  private static String diagLog(int gpus) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < gpus; i++) {
      b.append("GPU ")
          .append(i)
          .append(": NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-00000000000")
          .append(i)
          .append(")\n");
    }
    b.append("gpugen: nvidia-smi exit 0\n");
    b.append("Successfully ran diagnostic for group.\n");
    b.append("+---------------------------+------------------------------------------------+\n");
    b.append("| Diagnostic                | Result                                         |\n");
    b.append("+===========================+================================================+\n");
    b.append("| Deployment                | Pass                                           |\n");
    b.append("| Software                  | Pass                                           |\n");
    b.append("+---------------------------+------------------------------------------------+\n");
    b.append("gpugen: dcgmi exit 0\n");
    return b.toString();
  }

  /** nccl-tests all_reduce_perf output on one node, with {@code busbw} at the large sizes. */
  private static String ncclLog(String busbw, int gpus) {
    return "# nThread 1 nGpus "
        + gpus
        + " minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1"
        + " validation: 1 graph: 0\n"
        + "#\n"
        + "#                                                              out-of-place        "
        + "               in-place\n"
        + "#       size         count      type   redop    root     time   algbw   busbw #wrong"
        + "     time   algbw   busbw #wrong\n"
        + "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)      "
        + "      (us)  (GB/s)  (GB/s)\n"
        + "           8             2     float     sum      -1    45.12    0.00    0.00      0"
        + "    44.87    0.00    0.00      0\n"
        + "  8589934592    2147483648     float     sum      -1    38412  223.63  "
        + busbw
        + "      0    38390  223.76  "
        + busbw
        + "      0\n"
        + "# Out of bounds values : 0 OK\n"
        + "# Avg bus bandwidth    : 130.12\n"
        + "#\n"
        + "gpugen: all_reduce_perf exit 0\n";
  }

  /** Applies a JSON merge patch: objects merge, null removes, anything else replaces. */
  private static void mergePatch(ObjectNode target, JsonNode patch) {
    for (java.util.Map.Entry<String, JsonNode> e : patch.properties()) {
      JsonNode value = e.getValue();
      if (value.isNull()) {
        target.remove(e.getKey());
      } else if (value.isObject()) {
        // RFC 7386: an object merges into the target's object, or into an empty one (so its
        // nulls delete nothing and are not stored).
        ObjectNode child =
            target.get(e.getKey()) instanceof ObjectNode o ? o : target.putObject(e.getKey());
        mergePatch(child, value);
      } else {
        target.set(e.getKey(), value.deepCopy());
      }
    }
  }

  /** The object at {@code field} of {@code parent}, created empty when missing. */
  private static ObjectNode obj(ObjectNode parent, String field) {
    JsonNode child = parent.get(field);
    if (child instanceof ObjectNode o) {
      return o;
    }
    return parent.putObject(field);
  }

  /** The object without the stand-in's own fields. */
  private static ObjectNode visible(ObjectNode o) {
    ObjectNode copy = o.deepCopy();
    copy.remove("gpugenLogs");
    return copy;
  }

  private static void status(HttpExchange ex, int code, String reason, String message)
      throws IOException {
    ObjectNode s = JSON.createObjectNode();
    s.put("kind", "Status");
    s.put("apiVersion", "v1");
    s.putObject("metadata");
    s.put("status", "Failure");
    s.put("message", message);
    s.put("reason", reason);
    s.put("code", code);
    send(ex, code, s);
  }

  private static void send(HttpExchange ex, int code, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      q.put(k, v);
    }
    return q;
  }
}
