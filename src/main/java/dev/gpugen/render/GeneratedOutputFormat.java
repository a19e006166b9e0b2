package dev.gpugen.render;

import freemarker.core.CommonMarkupOutputFormat;
import freemarker.core.CommonTemplateMarkupOutputModel;
import freemarker.template.TemplateModelException;
import java.io.IOException;
import java.io.Writer;
import java.util.regex.Pattern;

/**
 * The output format of every gpugen template, and its safety catch: an interpolation of plain text
 * fails the render unless it is a number or a boolean. Strings must go through an escaper ({@code
 * hcl()}, {@code yaml()}, {@code unsafe()}, {@code json()}, {@code id()}), which return
 * already-escaped markup. A template that forgets to escape cannot render at all.
 */
final class GeneratedOutputFormat extends CommonMarkupOutputFormat<GeneratedOutputFormat.Markup> {
  static final GeneratedOutputFormat INSTANCE = new GeneratedOutputFormat();

  private static final Pattern INERT = Pattern.compile("-?[0-9]+(\\.[0-9]+)?|true|false");

  private GeneratedOutputFormat() {}

  /** Wraps text that Java code has already escaped. */
  static Markup markup(String escaped) {
    return new Markup(null, escaped);
  }

  @Override
  public String getName() {
    return "gpugen";
  }

  @Override
  public String getMimeType() {
    return "text/plain";
  }

  @Override
  public void output(String textToEsc, Writer out) throws IOException, TemplateModelException {
    out.write(escapePlainText(textToEsc));
  }

  @Override
  public String escapePlainText(String plainTextContent) throws TemplateModelException {
    if (INERT.matcher(plainTextContent).matches()) {
      return plainTextContent;
    }
    throw new TemplateModelException(
        "a template interpolated raw text "
            + (plainTextContent.length() > 40
                ? plainTextContent.substring(0, 40) + "…"
                : plainTextContent)
            + "; pass it through hcl(), yaml(), unsafe(), json(), sh() or id()");
  }

  @Override
  public boolean isLegacyBuiltInBypassed(String builtInName) {
    return false;
  }

  @Override
  protected Markup newTemplateMarkupOutputModel(String plainTextContent, String markupContent) {
    return new Markup(plainTextContent, markupContent);
  }

  /** Text that is already safe to write. */
  static final class Markup extends CommonTemplateMarkupOutputModel<Markup> {
    Markup(String plainTextContent, String markupContent) {
      super(plainTextContent, markupContent);
    }

    @Override
    public GeneratedOutputFormat getOutputFormat() {
      return INSTANCE;
    }
  }
}
