package dev.gpugen.spec.yaml;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What a dependent default ({@link Shape.Resolve}) or a computed component ({@link Shape.Derived})
 * may read: the values of its own mapping (as bound, with the dependent defaults of the keys
 * declared before it applied), the spec's root as bound, the selected environment and what the
 * knowledge base says about an instance type.
 */
public final class Scope {
  /** What every scope of one binding shares. */
  record Context(
      Map<String, Object> root, Optional<String> environment, Predicate<String> efaCapable) {}

  private final Map<String, Object> values;
  private final Context context;

  Scope(Map<String, Object> values, Context context) {
    this.values = values;
    this.context = context;
  }

  /** The value at {@code path} ("key" or "key.key") of this mapping, or null. */
  public Object get(String path) {
    return at(values, path);
  }

  public Optional<String> text(String path) {
    return Optional.ofNullable((String) get(path));
  }

  /** The value at {@code path} from the spec's root as bound (no dependent default applied). */
  public Object root(String path) {
    return at(context.root(), path);
  }

  public Optional<String> rootText(String path) {
    return Optional.ofNullable((String) root(path));
  }

  /** The list at {@code path} from the root, empty when absent. */
  @SuppressWarnings("unchecked")
  public List<Object> rootList(String path) {
    Object v = root(path);
    return v == null ? List.of() : (List<Object>) v;
  }

  /** The environment selected with --env, if any. */
  public Optional<String> environment() {
    return context.environment();
  }

  /** Whether the knowledge base says this EC2 instance type has EFA. */
  public boolean efaCapable(String instanceType) {
    return context.efaCapable().test(instanceType);
  }

  /** {@code shape} bound from the root value at {@code path}, as the binder would bind it. */
  public Object bind(String path, Shape.Obj shape) {
    return RecordBinder.build(shape, asMap(root(path)), context);
  }

  Context context() {
    return context;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object v) {
    return v == null ? Map.of() : (Map<String, Object>) v;
  }

  private static Object at(Map<String, Object> from, String path) {
    Object v = from;
    for (String key : path.split("\\.")) {
      if (!(v instanceof Map<?, ?> m)) {
        return null;
      }
      v = m.get(key);
    }
    return v;
  }
}
