package dev.gpugen.testing;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies of the spec's immutable records with some components replaced, addressed by path: {@code
 * with(spec, "pools[0].name", "x", "cloud.region", "eu-west-1")}. A test names only the keys it
 * changes and starts from a spec the reader built, so adding a component to a spec record touches
 * no test. A value for an {@code Optional} component may be given bare (it is wrapped); a path
 * through an {@code Optional} needs it present.
 */
public final class Records {
  private static final Pattern SEGMENT = Pattern.compile("([A-Za-z][A-Za-z0-9]*)(?:\\[(\\d+)])?");

  private Records() {}

  /** {@code record} with each {@code path, value} pair applied in order. */
  @SuppressWarnings("unchecked")
  public static <T extends Record> T with(T record, Object... pathsAndValues) {
    if (pathsAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("expected path, value pairs");
    }
    Object out = record;
    for (int i = 0; i < pathsAndValues.length; i += 2) {
      String path = (String) pathsAndValues[i];
      out = set(out, Arrays.asList(path.split("\\.")), pathsAndValues[i + 1], path);
    }
    return (T) out;
  }

  private static Object set(Object target, List<String> segments, Object value, String path) {
    if (!(target instanceof Record r)) {
      throw new IllegalArgumentException(path + ": " + target + " is not a record");
    }
    Matcher m = SEGMENT.matcher(segments.get(0));
    if (!m.matches()) {
      throw new IllegalArgumentException(path + ": bad segment " + segments.get(0));
    }
    RecordComponent[] components = r.getClass().getRecordComponents();
    int at = -1;
    for (int i = 0; i < components.length; i++) {
      if (components[i].getName().equals(m.group(1))) {
        at = i;
      }
    }
    if (at < 0) {
      throw new IllegalArgumentException(
          path
              + ": "
              + r.getClass().getSimpleName()
              + " has no "
              + m.group(1)
              + "; it has "
              + Arrays.stream(components).map(RecordComponent::getName).toList());
    }
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      args[i] = get(components[i], r);
    }
    List<String> rest = segments.subList(1, segments.size());
    Object current = args[at];
    if (m.group(2) != null) {
      List<Object> list = new ArrayList<>((List<?>) current);
      int index = Integer.parseInt(m.group(2));
      list.set(index, rest.isEmpty() ? value : set(list.get(index), rest, value, path));
      args[at] = Collections.unmodifiableList(list);
    } else if (rest.isEmpty()) {
      args[at] =
          components[at].getType() == Optional.class && !(value instanceof Optional)
              ? Optional.ofNullable(value)
              : value;
    } else if (current instanceof Optional<?> o) {
      args[at] =
          Optional.of(
              set(
                  o.orElseThrow(() -> new IllegalArgumentException(path + ": not present")),
                  rest,
                  value,
                  path));
    } else {
      args[at] = set(current, rest, value, path);
    }
    Class<?>[] types =
        Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new);
    try {
      Constructor<?> c = r.getClass().getDeclaredConstructor(types);
      c.setAccessible(true);
      return c.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(path + ": " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(path + ": " + e, e);
    }
  }

  private static Object get(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(c.getName() + ": " + e, e);
    }
  }
}
