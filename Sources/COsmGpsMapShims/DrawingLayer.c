// An OsmGpsMapLayer that forwards drawing to a Swift closure (the pins' and the tiles' layers): Swift cannot
// define a GObject type implementing an interface, which takes G_DEFINE_TYPE_WITH_CODE's macros.
#include "COsmGpsMapShims.h"

typedef struct {
    GObject parent_instance;
    VtDrawingLayerDrawFunc draw;
    gpointer user_data;
    GDestroyNotify destroy;
} VtDrawingLayer;

typedef struct {
    GObjectClass parent_class;
} VtDrawingLayerClass;

static void vt_drawing_layer_iface_init(OsmGpsMapLayerIface *iface);

G_DEFINE_TYPE_WITH_CODE(VtDrawingLayer, vt_drawing_layer, G_TYPE_OBJECT,
                        G_IMPLEMENT_INTERFACE(OSM_TYPE_GPS_MAP_LAYER, vt_drawing_layer_iface_init))

static void vt_drawing_layer_render(OsmGpsMapLayer *layer, OsmGpsMap *map) {
    (void)layer;
    (void)map;
}

static void vt_drawing_layer_draw(OsmGpsMapLayer *layer, OsmGpsMap *map, cairo_t *cr) {
    VtDrawingLayer *self = (VtDrawingLayer *)layer;
    if (self->draw) {
        cairo_save(cr);
        self->draw(map, cr, self->user_data);
        cairo_restore(cr);
    }
}

static gboolean vt_drawing_layer_busy(OsmGpsMapLayer *layer) {
    (void)layer;
    return FALSE;
}

static gboolean vt_drawing_layer_button_press(OsmGpsMapLayer *layer, OsmGpsMap *map, GdkEventButton *event) {
    (void)layer;
    (void)map;
    (void)event;
    return FALSE; // input is handled by the map's signal handlers
}

static void vt_drawing_layer_iface_init(OsmGpsMapLayerIface *iface) {
    iface->render = vt_drawing_layer_render;
    iface->draw = vt_drawing_layer_draw;
    iface->busy = vt_drawing_layer_busy;
    iface->button_press = vt_drawing_layer_button_press;
}

static void vt_drawing_layer_finalize(GObject *object) {
    VtDrawingLayer *self = (VtDrawingLayer *)object;
    if (self->destroy && self->user_data) {
        self->destroy(self->user_data);
    }
    G_OBJECT_CLASS(vt_drawing_layer_parent_class)->finalize(object);
}

static void vt_drawing_layer_class_init(VtDrawingLayerClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = vt_drawing_layer_finalize;
}

static void vt_drawing_layer_init(VtDrawingLayer *self) {
    self->draw = NULL;
    self->user_data = NULL;
    self->destroy = NULL;
}

OsmGpsMapLayer *vt_drawing_layer_new(VtDrawingLayerDrawFunc draw, gpointer user_data, GDestroyNotify destroy) {
    VtDrawingLayer *self = g_object_new(vt_drawing_layer_get_type(), NULL);
    self->draw = draw;
    self->user_data = user_data;
    self->destroy = destroy;
    return (OsmGpsMapLayer *)self;
}
