#include "CShims.h"

typedef struct {
    GObject parent_instance;
    VtPinLayerDrawFunc draw;
    gpointer user_data;
    GDestroyNotify destroy;
} VtPinLayer;

typedef struct {
    GObjectClass parent_class;
} VtPinLayerClass;

static void vt_pin_layer_iface_init(OsmGpsMapLayerIface *iface);

G_DEFINE_TYPE_WITH_CODE(VtPinLayer, vt_pin_layer, G_TYPE_OBJECT,
                        G_IMPLEMENT_INTERFACE(OSM_TYPE_GPS_MAP_LAYER, vt_pin_layer_iface_init))

static void vt_pin_layer_render(OsmGpsMapLayer *layer, OsmGpsMap *map) {
    (void)layer;
    (void)map;
}

static void vt_pin_layer_draw(OsmGpsMapLayer *layer, OsmGpsMap *map, cairo_t *cr) {
    VtPinLayer *self = (VtPinLayer *)layer;
    if (self->draw) {
        cairo_save(cr);
        self->draw(map, cr, self->user_data);
        cairo_restore(cr);
    }
}

static gboolean vt_pin_layer_busy(OsmGpsMapLayer *layer) {
    (void)layer;
    return FALSE;
}

static gboolean vt_pin_layer_button_press(OsmGpsMapLayer *layer, OsmGpsMap *map, GdkEventButton *event) {
    (void)layer;
    (void)map;
    (void)event;
    return FALSE; // input is handled by the map's signal handlers
}

static void vt_pin_layer_iface_init(OsmGpsMapLayerIface *iface) {
    iface->render = vt_pin_layer_render;
    iface->draw = vt_pin_layer_draw;
    iface->busy = vt_pin_layer_busy;
    iface->button_press = vt_pin_layer_button_press;
}

static void vt_pin_layer_finalize(GObject *object) {
    VtPinLayer *self = (VtPinLayer *)object;
    if (self->destroy && self->user_data) {
        self->destroy(self->user_data);
    }
    G_OBJECT_CLASS(vt_pin_layer_parent_class)->finalize(object);
}

static void vt_pin_layer_class_init(VtPinLayerClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = vt_pin_layer_finalize;
}

static void vt_pin_layer_init(VtPinLayer *self) {
    self->draw = NULL;
    self->user_data = NULL;
    self->destroy = NULL;
}

OsmGpsMapLayer *vt_pin_layer_new(VtPinLayerDrawFunc draw, gpointer user_data, GDestroyNotify destroy) {
    VtPinLayer *self = g_object_new(vt_pin_layer_get_type(), NULL);
    self->draw = draw;
    self->user_data = user_data;
    self->destroy = destroy;
    return (OsmGpsMapLayer *)self;
}
