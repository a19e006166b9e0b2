package dev.gpugen.render;

import dev.gpugen.failure.InternalFailure;
import dev.gpugen.plan.ClusterPlan;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders one plan's outputs ({@link RenderPlan}) in memory: templates through FreeMarker against
 * the views, static files copied behind the generated-file header. A template that renders blank is
 * an error: whether a file exists is the render plan's decision, not the template's.
 */
public final class Renderer {
  private final Templates templates;

  public Renderer(Templates templates) {
    this.templates = templates;
  }

  /**
   * @param specLabel how generated headers name the spec (a path relative to the output folder)
   */
  public RenderedTree render(ClusterPlan plan, String specLabel) throws InternalFailure {
    return render(plan, specLabel, new TreeMap<>());
  }

  /**
   * @param specLabel how generated headers name the spec (a path relative to the output folder)
   * @param accepted the node settings Terraform accepts beside those its state records, by pool
   *     ({@code plan/NodeSettings.allowed})
   */
  public RenderedTree render(
      ClusterPlan plan,
      String specLabel,
      java.util.SortedMap<String, java.util.SortedMap<String, Object>> accepted)
      throws InternalFailure {
    Map<String, Object> base = Views.model(plan, specLabel);
    base.put(
        "terraform", ((TerraformView) base.get("terraform")).withAcceptedNodeSettings(accepted));
    Map<String, RenderedTree.File> out = new TreeMap<>();
    // The bundle (ansible/) first: the other files may name its digest (pull mode's user data).
    List<RenderPlan.Output> outputs = new ArrayList<>();
    List<RenderPlan.Output> rest = new ArrayList<>();
    for (RenderPlan.Output o : RenderPlan.of(plan, templates)) {
      (o.path().startsWith(BundleDigest.FOLDER) ? outputs : rest).add(o);
    }
    // ... and its file list: what pull.tf uploads is what the digest covers.
    base.put(
        "terraform",
        ((TerraformView) base.get("terraform"))
            .withBundleFiles(
                outputs.stream()
                    .map(o -> o.path().substring(BundleDigest.FOLDER.length()))
                    .sorted()
                    .toList()));
    int bundleFiles = outputs.size();
    outputs.addAll(rest);
    for (int i = 0; i < outputs.size(); i++) {
      RenderPlan.Output o = outputs.get(i);
      if (i == bundleFiles) {
        base.put("bundleSha256", BundleDigest.of(out));
      }
      String text;
      if (o.template()) {
        Map<String, Object> model = new HashMap<>(base);
        o.pool().ifPresent(p -> model.put("pool", Views.pool(p)));
        text = renderOne(o.source(), model);
      } else {
        text = copy(o.source(), specLabel);
      }
      if (text.isBlank()) {
        throw new InternalFailure(
            "render failed: " + o.source() + ": rendered blank for " + o.path(), null);
      }
      put(out, o.path(), text);
    }
    return RenderedTree.of(out);
  }

  /** A static file behind the header: after the #! line of a script, as Jinja for *.j2 files. */
  String copy(String source, String specLabel) throws InternalFailure {
    String body;
    try {
      body = templates.text(source);
    } catch (IOException e) {
      throw new InternalFailure("render failed: " + source + ": " + e.getMessage(), e);
    }
    String header = Views.header(specLabel, source.endsWith(".j2")) + "\n";
    if (body.startsWith("#!")) {
      int nl = body.indexOf('\n') + 1;
      return body.substring(0, nl) + header + body.substring(nl);
    }
    return header + body;
  }

  private static void put(Map<String, RenderedTree.File> out, String path, String text) {
    String normalized = text.replace("\r\n", "\n");
    if (!normalized.endsWith("\n")) {
      normalized += "\n";
    }
    out.put(
        path,
        new RenderedTree.File(
            normalized.getBytes(StandardCharsets.UTF_8), normalized.startsWith("#!")));
  }

  private String renderOne(String name, Map<String, Object> model) throws InternalFailure {
    try {
      Template t = templates.get(name);
      StringWriter w = new StringWriter();
      Map<String, Object> data = new HashMap<>(model);
      data.putAll(Functions.all());
      t.process(data, w);
      return w.toString();
    } catch (TemplateException e) {
      String where =
          e.getLineNumber() == null
              ? name
              : name + ":" + e.getLineNumber() + ":" + e.getColumnNumber();
      throw new InternalFailure(
          "render failed: " + where + ": " + message(e.getMessageWithoutStackTop()), e);
    } catch (IOException e) {
      throw new InternalFailure("render failed: " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * FreeMarker's whole message: its first line names the problem, the rest says which expression
   * failed and often the fix ("Tip: ..."), which an override's author needs.
   */
  private static String message(String s) {
    return s == null || s.isBlank() ? "template error" : s.strip();
  }
}
