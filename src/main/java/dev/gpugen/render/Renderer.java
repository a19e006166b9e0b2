package dev.gpugen.render;

import dev.gpugen.spec.ClusterSpec;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders every template against one resolved spec, in memory. A template named {@code
 * x/pool_{pool}.yml.ftl} renders once per pool; a template whose output is blank writes no file (so
 * provider-specific files are one {@code <#if>} away). Whole sets of files that a provider has no
 * use for (the node roles on GKE) are left out by {@link Views#rendersFor}.
 */
public final class Renderer {
  static final String POOL_TOKEN = "{pool}";

  private final Templates templates;

  public Renderer(Templates templates) {
    this.templates = templates;
  }

  /**
   * @param specLabel how generated headers name the spec (a path relative to the output folder)
   */
  public RenderedTree render(ClusterSpec spec, String specLabel) throws RenderException {
    Map<String, Object> base = Views.model(spec, specLabel);
    Map<String, RenderedTree.File> out = new TreeMap<>();
    for (String name : templates.names()) {
      String path = Templates.outputPathOf(name);
      if (!Views.rendersFor(spec, path)) {
        continue;
      }
      if (path.contains(POOL_TOKEN)) {
        for (ClusterSpec.Pool pool : spec.pools()) {
          Map<String, Object> model = new HashMap<>(base);
          model.put("pool", Views.pool(spec, pool));
          put(out, path.replace(POOL_TOKEN, Views.groupSafe(pool.name())), renderOne(name, model));
        }
      } else {
        put(out, path, renderOne(name, base));
      }
    }
    return RenderedTree.of(out);
  }

  private static void put(Map<String, RenderedTree.File> out, String path, String text) {
    if (text.isBlank()) {
      return;
    }
    String normalized = text.replace("\r\n", "\n");
    if (!normalized.endsWith("\n")) {
      normalized += "\n";
    }
    out.put(
        path,
        new RenderedTree.File(
            normalized.getBytes(StandardCharsets.UTF_8), normalized.startsWith("#!")));
  }

  private String renderOne(String name, Map<String, Object> model) throws RenderException {
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
      throw new RenderException(where + ": " + message(e.getMessageWithoutStackTop()), e);
    } catch (IOException e) {
      throw new RenderException(name + ": " + e.getMessage(), e);
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
