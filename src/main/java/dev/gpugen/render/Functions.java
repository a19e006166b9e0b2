package dev.gpugen.render;

import dev.gpugen.json.Json;
import freemarker.template.TemplateMethodModelEx;
import freemarker.template.TemplateModel;
import freemarker.template.TemplateModelException;
import freemarker.template.utility.DeepUnwrap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/** The escapers, as template functions: {@code [=hcl(x)]}, {@code [=unsafe(x)]}, … */
final class Functions {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  private Functions() {}

  static Map<String, TemplateModel> all() {
    Map<String, TemplateModel> m = new TreeMap<>();
    m.put("hcl", text(Escape::hcl));
    m.put("yaml", text(Escape::yaml));
    m.put("unsafe", text(Escape::ansible));
    m.put("sh", text(Escape::sh));
    m.put("comment", text(Escape::comment));
    m.put(
        "id",
        text(
            s -> {
              if (!IDENTIFIER.matcher(s).matches()) {
                throw new IllegalArgumentException("not an identifier: " + Escape.yaml(s));
              }
              return s;
            }));
    m.put(
        "json",
        (TemplateMethodModelEx)
            args -> {
              Object value = DeepUnwrap.unwrap(single(args));
              try {
                return GeneratedOutputFormat.INSTANCE.fromMarkup(Json.write(value));
              } catch (IllegalArgumentException e) {
                throw new TemplateModelException("json(): " + e.getMessage(), e);
              }
            });
    m.put("yamlTree", tree(false));
    m.put("unsafeTree", tree(true));
    return m;
  }

  /** {@code [=yamlTree(x, indent)]}: block YAML of a computed tree; see {@link YamlTree}. */
  @SuppressWarnings("rawtypes")
  private static TemplateMethodModelEx tree(boolean unsafe) {
    return args -> {
      if (args.size() != 2) {
        throw new TemplateModelException("expected a tree and an indent, got " + args.size());
      }
      Object value = DeepUnwrap.unwrap((TemplateModel) args.get(0));
      Object indent = DeepUnwrap.unwrap((TemplateModel) args.get(1));
      if (!(indent instanceof Number n)) {
        throw new TemplateModelException("the indent must be a number, got " + indent);
      }
      try {
        return GeneratedOutputFormat.INSTANCE.fromMarkup(
            YamlTree.write(value, n.intValue(), unsafe));
      } catch (IllegalArgumentException e) {
        throw new TemplateModelException(e.getMessage(), e);
      }
    };
  }

  private static TemplateMethodModelEx text(Function<String, String> escaper) {
    return args -> {
      Object v = DeepUnwrap.unwrap(single(args));
      if (!(v instanceof String) && !(v instanceof Number) && !(v instanceof Boolean)) {
        throw new TemplateModelException("expected text, got " + v);
      }
      try {
        return GeneratedOutputFormat.INSTANCE.fromMarkup(escaper.apply(String.valueOf(v)));
      } catch (IllegalArgumentException e) {
        throw new TemplateModelException(e.getMessage(), e);
      }
    };
  }

  @SuppressWarnings("rawtypes")
  private static TemplateModel single(List args) throws TemplateModelException {
    if (args.size() != 1) {
      throw new TemplateModelException("expected one argument, got " + args.size());
    }
    return (TemplateModel) args.get(0);
  }
}
