package dev.gpugen.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.testing.RealTools;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's headless Chromium driven through the DevTools protocol (the JDK's WebSocket client, no
 * browser library): one fresh profile per instance, no network services, the protocol on an
 * ephemeral 127.0.0.1 port. Collects what a person would see in the console: console errors and
 * warnings, uncaught exceptions, browser log entries (Content-Security-Policy refusals among them)
 * and JavaScript dialogs.
 */
final class Chromium implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final WebSocket socket;
  private final String session;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final List<JsonNode> events = new CopyOnWriteArrayList<>();

  /** Starts Chromium with a fresh profile in {@code profile} and opens one blank page. */
  Chromium(Path profile) throws Exception {
    Files.createDirectories(profile);
    ProcessBuilder pb =
        new ProcessBuilder(
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--user-data-dir=" + profile,
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(profile.resolveSibling(profile.getFileName() + ".log").toFile());
    process = RealTools.start(pb);
    Path active = profile.resolve("DevToolsActivePort");
    Instant deadline = Instant.now().plusSeconds(60);
    List<String> lines = List.of();
    while (Instant.now().isBefore(deadline)) {
      if (Files.exists(active)) {
        lines = Files.readAllLines(active);
        if (lines.size() >= 2) {
          break;
        }
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "chromium exited " + process.exitValue() + ": " + log(profile));
      }
      Thread.sleep(100);
    }
    if (lines.size() < 2) {
      close();
      throw new IllegalStateException("chromium opened no DevTools port: " + log(profile));
    }
    URI uri = URI.create("ws://127.0.0.1:" + lines.get(0).trim() + lines.get(1).trim());
    socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .buildAsync(uri, new Listener())
            .get(30, TimeUnit.SECONDS);
    String target =
        call(null, "Target.createTarget", JSON.createObjectNode().put("url", "about:blank"))
            .path("targetId")
            .asText();
    session =
        call(
                null,
                "Target.attachToTarget",
                JSON.createObjectNode().put("targetId", target).put("flatten", true))
            .path("sessionId")
            .asText();
    for (String domain : List.of("Runtime", "Log", "Page")) {
      call(domain + ".enable", JSON.createObjectNode());
    }
  }

  private static String log(Path profile) {
    try {
      return Files.readString(profile.resolveSibling(profile.getFileName() + ".log"));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  /** A page of {@code width} x {@code height} CSS pixels in the light or the dark scheme. */
  void viewport(int width, int height, boolean dark) throws Exception {
    call(
        "Emulation.setDeviceMetricsOverride",
        JSON.createObjectNode()
            .put("width", width)
            .put("height", height)
            .put("deviceScaleFactor", 1)
            .put("mobile", false));
    ObjectNode media = JSON.createObjectNode().put("media", "screen");
    media
        .putArray("features")
        .addObject()
        .put("name", "prefers-color-scheme")
        .put("value", dark ? "dark" : "light");
    call("Emulation.setEmulatedMedia", media);
  }

  /** Opens {@code file} and waits for its load event. */
  void open(Path file) throws Exception {
    int before = events.size();
    call("Page.navigate", JSON.createObjectNode().put("url", file.toUri().toString()));
    Instant deadline = Instant.now().plus(CALL_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      for (int i = before; i < events.size(); i++) {
        if (events.get(i).path("method").asText().equals("Page.loadEventFired")) {
          return;
        }
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("no load event for " + file);
  }

  /** The value of a JavaScript expression on the page. */
  JsonNode eval(String expression) throws Exception {
    JsonNode r =
        call(
            "Runtime.evaluate",
            JSON.createObjectNode().put("expression", expression).put("returnByValue", true));
    if (r.has("exceptionDetails")) {
      throw new IllegalStateException(expression + " threw " + r.path("exceptionDetails"));
    }
    return r.path("result").path("value");
  }

  /** A PNG of the top {@code height} CSS pixels of the page at {@code width}. */
  byte[] screenshot(int width, int height) throws Exception {
    ObjectNode p = JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", true);
    p.putObject("clip")
        .put("x", 0)
        .put("y", 0)
        .put("width", width)
        .put("height", height)
        .put("scale", 1);
    return Base64.getDecoder().decode(call("Page.captureScreenshot", p).path("data").asText());
  }

  /**
   * What a person would see in the console: console errors and warnings, uncaught exceptions, error
   * and warning log entries (a refused script or style is one), and any dialog the page opened.
   */
  List<String> problems() {
    List<String> out = new ArrayList<>();
    for (JsonNode e : events) {
      JsonNode p = e.path("params");
      switch (e.path("method").asText()) {
        case "Runtime.consoleAPICalled" -> {
          String type = p.path("type").asText();
          if (type.equals("error") || type.equals("warning") || type.equals("assert")) {
            out.add("console." + type + ": " + p.path("args"));
          }
        }
        case "Runtime.exceptionThrown" -> out.add("exception: " + p.path("exceptionDetails"));
        case "Log.entryAdded" -> {
          String level = p.path("entry").path("level").asText();
          if (level.equals("error") || level.equals("warning")) {
            out.add("log." + level + ": " + p.path("entry").path("text").asText());
          }
        }
        case "Page.javascriptDialogOpening" -> out.add("dialog: " + p.path("message").asText());
        default -> {}
      }
    }
    return out;
  }

  private JsonNode call(String method, ObjectNode params) throws Exception {
    return call(session, method, params);
  }

  private JsonNode call(String sessionId, String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
    msg.set("params", params);
    if (sessionId != null) {
      msg.put("sessionId", sessionId);
    }
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    pending.put(id, reply);
    socket.sendText(JSON.writeValueAsString(msg), true).get(30, TimeUnit.SECONDS);
    JsonNode r = reply.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (r.has("error")) {
      throw new IllegalStateException(method + ": " + r.path("error"));
    }
    return r.path("result");
  }

  @Override
  public void close() {
    try {
      if (socket != null) {
        call(null, "Browser.close", JSON.createObjectNode());
      }
    } catch (Exception e) {
      // The process is ended below either way.
    }
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        try {
          JsonNode msg = JSON.readTree(text.toString());
          if (msg.has("id")) {
            CompletableFuture<JsonNode> f = pending.remove(msg.path("id").asInt());
            if (f != null) {
              f.complete(msg);
            }
          } else {
            events.add(msg);
          }
        } catch (IOException e) {
          events.add(
              JSON.createObjectNode().put("method", "unreadable").put("text", text.toString()));
        }
        text.setLength(0);
      }
      ws.request(1);
      return null;
    }
  }
}
