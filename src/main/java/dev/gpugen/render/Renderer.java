package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
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
  public RenderedTree render(ClusterPlan plan, String specLabel) throws RenderException {
    Map<String, Object> base = Views.model(plan, specLabel);
    Map<String, RenderedTree.File> out = new TreeMap<>();
    for (String name : templates.names()) {
      String path = Templates.outputPathOf(name);
      if (!Views.rendersFor(plan, path)) {
        continue;
      }
      if (path.contains(POOL_TOKEN)) {
        for (PoolPlan pool : plan.pools()) {
          Map<String, Object> model = new HashMap<>(base);
          model.put("pool", Views.pool(plan, pool));
          put(out, path.replace(POOL_TOKEN, pool.tfPrefix()), renderOne(name, model));
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
      throw new RenderException(where + ": " + firstLine(e.getMessageWithoutStackTop()), e);
    } catch (IOException e) {
      throw new RenderException(name + ": " + e.getMessage(), e);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "template error";
    }
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).trim();
  }
}
