#pragma once
// JAX's and TensorFlow's XSpace profiles (`*.xplane.pb`, resources/xplane/xplane.proto,
// decoded by libprotobuf): every "/device:GPU:N" plane's "Stream #K(...)" lines become
// device N's streams (kernels; copies and memsets on the lines that say so), its other
// lines annotation tracks of the device; every host plane's lines ("/host:CPU") threads
// of one process, their events ops (launch calls, cu* / hip*, as runtime calls). Events
// are named through their plane's event metadata (display name first); each stat becomes
// an arg named by the plane's stat metadata (a ref value: that metadata's name), keeping
// the XLA op and HLO module names that tie device events to host ops, and a
// "correlation_id" stat links launches to their kernels. Timestamps: the line's start
// (ns) plus the event's offset (ps). "/host:metadata" (HLO protos) is not read.
#include <string_view>

#include "io/byte_source.h"
#include "io/load_result.h"

namespace opscope {

// A serialized XSpace: field 1 (planes) first, a plane name ("/host:" or "/device:") near
// the start.
bool looksLikeXPlane(std::string_view head);
LoadResult loadXPlane(ByteSource& src);

}  // namespace opscope
